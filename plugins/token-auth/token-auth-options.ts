import { isAbsolute, resolve } from 'node:path';
import { SluiceError } from '../../src/plugins/sdk/index.js';
import { KEY_FILE_LAYOUTS, type KeyFileLayout } from './key-file-layout.js';

/** token-auth's settings, defaults filled in and the key file's path absolute. */
export interface TokenAuthOptions {
  /** Where the keys are written (mode 0600). */
  readonly keyFile: string;
  /** Field names of the key file: Sluice's, or TorchServe's `key_file.json` ones. */
  readonly keyFileLayout: KeyFileLayout;
  /** Lifetime of the inference and management keys, from their creation or rotation. */
  readonly expirationMinutes: number;
  /** Lifetime of the API key; null: it lasts as long as the server (as in TorchServe). */
  readonly apiKeyExpirationMinutes: number | null;
}

/** The defaults, as in the manifest's config schema. */
export const TOKEN_AUTH_DEFAULTS = {
  keyFile: './.sluice/key_file.json',
  keyFileLayout: 'sluice',
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
  const layout = config['keyFileLayout'] ?? TOKEN_AUTH_DEFAULTS.keyFileLayout;
  if (typeof layout !== 'string' || !(KEY_FILE_LAYOUTS as readonly string[]).includes(layout)) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `token-auth: \`config.keyFileLayout\` must be one of ${KEY_FILE_LAYOUTS.join(', ')} (got ${JSON.stringify(layout)})`, {
      plugin: 'token-auth',
      key: 'keyFileLayout',
    });
  }
  return {
    keyFile: isAbsolute(keyFile) ? keyFile : resolve(configDirectory, keyFile),
    keyFileLayout: layout as KeyFileLayout,
    expirationMinutes: positiveNumber(config, 'expirationMinutes') ?? TOKEN_AUTH_DEFAULTS.expirationMinutes,
    apiKeyExpirationMinutes: positiveNumber(config, 'apiKeyExpirationMinutes') ?? TOKEN_AUTH_DEFAULTS.apiKeyExpirationMinutes,
  };
}
