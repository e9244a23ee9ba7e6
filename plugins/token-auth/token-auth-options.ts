import { isAbsolute, resolve } from 'node:path';
import { SluiceError } from '../../src/sdk/index.js';
import { KEY_FILE_LAYOUTS, type KeyFileLayout } from './key-file-layout.js';

/**
 * Keys every replica shares instead of keys each server makes: from a keys file (a mounted Secret), read
 * again when it changes, or from the environment, read at start-up.
 */
export type SharedKeysOption =
  | { readonly from: 'file'; readonly file: string; readonly reloadIntervalSeconds: number }
  | { readonly from: 'environment' };

/** token-auth's settings, defaults filled in and the key file's path absolute. */
export interface TokenAuthOptions {
  /** Where shared keys come from; undefined: the server makes its own keys and writes them to {@link keyFile}. */
  readonly sharedKeys?: SharedKeysOption;
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
  keysFromEnvironment: false,
  keysReloadIntervalSeconds: 10,
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

function invalid(key: string, expected: string, got: unknown): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_INVALID', `token-auth: \`config.${key}\` must be ${expected} (got ${JSON.stringify(got)})`, { plugin: 'token-auth', key });
}

/** The shared-keys settings: `keysFile` or `keysFromEnvironment`, not both; undefined when neither is set. */
function sharedKeysOption(config: Readonly<Record<string, unknown>>, configDirectory: string): SharedKeysOption | undefined {
  const file = config['keysFile'];
  const fromEnvironment = config['keysFromEnvironment'] ?? TOKEN_AUTH_DEFAULTS.keysFromEnvironment;
  const interval = config['keysReloadIntervalSeconds'] ?? TOKEN_AUTH_DEFAULTS.keysReloadIntervalSeconds;
  if (file !== undefined && (typeof file !== 'string' || file === '')) throw invalid('keysFile', 'the path of a keys file', file);
  if (typeof fromEnvironment !== 'boolean') throw invalid('keysFromEnvironment', 'true or false', fromEnvironment);
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < 0) throw invalid('keysReloadIntervalSeconds', 'an integer >= 0 (0: read the keys file at start-up only)', interval);
  if (file !== undefined && fromEnvironment) {
    throw new SluiceError('SLUICE_PLUGIN_INVALID', 'token-auth: `config.keysFile` and `config.keysFromEnvironment` both say where the shared keys come from; set one of them', {
      plugin: 'token-auth',
      key: 'keysFile',
    });
  }
  if (fromEnvironment) return { from: 'environment' };
  if (file === undefined) return undefined;
  return { from: 'file', file: isAbsolute(file) ? file : resolve(configDirectory, file), reloadIntervalSeconds: interval };
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
  const sharedKeys = sharedKeysOption(config, configDirectory);
  return {
    ...(sharedKeys === undefined ? {} : { sharedKeys }),
    keyFile: isAbsolute(keyFile) ? keyFile : resolve(configDirectory, keyFile),
    keyFileLayout: layout as KeyFileLayout,
    expirationMinutes: positiveNumber(config, 'expirationMinutes') ?? TOKEN_AUTH_DEFAULTS.expirationMinutes,
    apiKeyExpirationMinutes: positiveNumber(config, 'apiKeyExpirationMinutes') ?? TOKEN_AUTH_DEFAULTS.apiKeyExpirationMinutes,
  };
}
