import { isAbsolute, resolve } from 'node:path';
import { SluiceError } from '../../src/sdk/index.js';

/** token-auth's settings, defaults filled in and the key file's path absolute. */
export interface TokenAuthOptions {
  /** Where the keys are written (mode 0600). */
  readonly keyFile: string;
  /** Lifetime of the inference and management keys, from their creation or rotation. */
  readonly expirationMinutes: number;
  /** Lifetime of the API key; null: it lasts as long as the server (as in TorchServe). */
  readonly apiKeyExpirationMinutes: number | null;
}

/** The defaults, as in the manifest's config schema. */
export const TOKEN_AUTH_DEFAULTS = {
  keyFile: './.sluice/key_file.json',
  expirationMinutes: 60,
  apiKeyExpirationMinutes: null,
} as const;

function positiveNumber(config: Readonly<Record<string, unknown>>, key: string): number | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `token-auth: \`config.${key}\` must be a number of minutes above 0 (got ${JSON.stringify(value)})`, {
      plugin: 'token-auth',
      key,
    });
  }
  return value;
}

/**
 * Reads token-auth's `config` (already checked against the manifest's schema by the loader; checked here
 * again for embedders that call the factory directly). A relative `keyFile` resolves against
 * `configDirectory`.
 */
export function tokenAuthOptions(config: Readonly<Record<string, unknown>>, configDirectory: string): TokenAuthOptions {
  const keyFile = config['keyFile'] ?? TOKEN_AUTH_DEFAULTS.keyFile;
  if (typeof keyFile !== 'string' || keyFile === '') {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', 'token-auth: `config.keyFile` must be a file path', { plugin: 'token-auth', key: 'keyFile' });
  }
  return {
    keyFile: isAbsolute(keyFile) ? keyFile : resolve(configDirectory, keyFile),
    expirationMinutes: positiveNumber(config, 'expirationMinutes') ?? TOKEN_AUTH_DEFAULTS.expirationMinutes,
    apiKeyExpirationMinutes: positiveNumber(config, 'apiKeyExpirationMinutes') ?? TOKEN_AUTH_DEFAULTS.apiKeyExpirationMinutes,
  };
}
