import { SluiceError } from '../../sdk/errors/index.js';
import type { SluiceConfig } from '../../config/index.js';

/**
 * Refuses a model registration or unregistration with `SLUICE_MODEL_API_DISABLED` while `modelApi` is
 * false (TorchServe's `enable_model_api`), before its parameters are read, as TorchServe refuses it.
 * `operation` names the call (`POST /models`, `UnregisterModel`); `allow` is the methods the REST path
 * still takes, for the `Allow` header of the 405.
 */
export function checkModelApiEnabled(config: Pick<SluiceConfig, 'modelApi'>, operation: string, allow?: readonly string[]): void {
  if (config.modelApi) return;
  throw new SluiceError(
    'SLUICE_MODEL_API_DISABLED',
    `${operation} is refused: the model API is disabled on this server, so models are neither registered nor unregistered through it; ` +
      'set enable_model_api=true in config.properties (or modelApi: true in sluice.yaml, SLUICE_MODEL_API=true) and restart to manage models through the API',
    { operation, ...(allow !== undefined && allow.length > 0 ? { allow: allow.join(', ') } : {}) },
  );
}
