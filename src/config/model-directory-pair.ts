import { SluiceError } from '../sdk/errors/index.js';
import type { ConfigSources } from './config-sources.js';
import type { SluiceConfig } from './sluice-config.js';

/**
 * `modelDir` and `modelName` go together: a directory needs the name it is served under, and a name alone
 * serves nothing. Throws `SLUICE_CONFIG_INVALID` naming the key that is set and where it was set.
 */
export function checkModelDirectoryPair(config: SluiceConfig, sources: ConfigSources): void {
  const dirSet = config.modelDir !== '';
  if (dirSet === (config.modelName !== '')) return;
  const [set, missing] = dirSet ? ['modelDir', 'modelName'] : ['modelName', 'modelDir'];
  const error = new SluiceError(
    'SLUICE_CONFIG_INVALID',
    `\`${set}\` is set but \`${missing}\` is not; they go together: \`modelDir\` the model directory, \`modelName\` the name it is served under (or neither)`,
    { key: set },
  );
  throw sources.attribute(error);
}
