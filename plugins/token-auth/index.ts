import { definePlugin, SluiceError, type AuthProvider, type Endpoint, type Logger } from '../../src/sdk/index.js';
import { ReloadingSharedKeys } from './reloading-shared-keys.js';
import { SharedKeyAuthProvider } from './shared-key-auth-provider.js';
import { sharedKeysFromEnvironment } from './shared-keys-environment.js';
import { tokenAuthOptions, type SharedKeysOption, type TokenAuthOptions } from './token-auth-options.js';
import { TokenAuthProvider } from './token-auth-provider.js';
import { tokenEndpoint } from './token-endpoint.js';
import { TokenKeyService } from './token-key-service.js';

export { TOKEN_AUTH_DEFAULTS, tokenAuthOptions, type SharedKeysOption, type TokenAuthOptions } from './token-auth-options.js';
export { ReloadingSharedKeys, UNKNOWN_TOKEN_CHECK_MS } from './reloading-shared-keys.js';
export { SharedKeyAuthProvider } from './shared-key-auth-provider.js';
export { MIN_SHARED_KEY_LENGTH, SharedKeySet } from './shared-keys.js';
export { readSharedKeysFile } from './shared-keys-file.js';
export { SHARED_KEY_VARIABLES, sharedKeysFromEnvironment } from './shared-keys-environment.js';
export { TokenAuthProvider } from './token-auth-provider.js';
export { tokenEndpoint } from './token-endpoint.js';
export { TokenKeyService } from './token-key-service.js';
export type { IssuedKey, KeyFileContent, KeyType, RotatableKeyType } from './token-keys.js';

/** What {@link createTokenAuth} makes: the guard, the rotation endpoint and the keys behind both. */
export interface TokenAuth {
  readonly provider: AuthProvider;
  readonly endpoint: Endpoint;
  readonly keys: TokenKeyService;
}

/**
 * Makes fresh keys in memory and returns the `token-auth` guard and its `GET /token` endpoint; nothing is
 * written until `keys.publish()` writes the key file. `now` is the clock keys expire by (tests move it).
 */
export function prepareTokenAuth(options: TokenAuthOptions, logger: Logger, now: () => number = Date.now): TokenAuth {
  const keys = TokenKeyService.create(options, logger, now);
  return { provider: new TokenAuthProvider(keys), endpoint: tokenEndpoint(() => keys), keys };
}

/** {@link prepareTokenAuth}, then writes the key file (mode 0600): for embedders that start no server with it. */
export async function createTokenAuth(options: TokenAuthOptions, logger: Logger, now: () => number = Date.now): Promise<TokenAuth> {
  const auth = prepareTokenAuth(options, logger, now);
  await auth.keys.publish();
  return auth;
}

/**
 * The guard over keys every replica shares: read from the keys file (and read again when it changes), or
 * from `env`. A source that cannot be used is thrown (`SLUICE_PLUGIN_LOAD_FAILED` naming it and the key).
 * `now` times the looks at the file (tests move it).
 */
export async function createSharedKeyAuth(
  option: SharedKeysOption,
  logger: Logger,
  env: Readonly<Record<string, string | undefined>> = process.env,
  now: () => number = Date.now,
): Promise<SharedKeyAuthProvider> {
  if (option.from === 'environment') {
    const keys = sharedKeysFromEnvironment(env);
    logger.info('token-auth keys read from the environment');
    return new SharedKeyAuthProvider(keys);
  }
  const keys = await ReloadingSharedKeys.open(option.file, option.reloadIntervalSeconds * 1000, logger, now);
  logger.info('token-auth keys read', { keysFile: option.file, keysReloadIntervalSeconds: option.reloadIntervalSeconds });
  return new SharedKeyAuthProvider(keys);
}

/** What `GET /token` answers when the keys are shared: they are rotated where they come from. */
function notRotatable(option: SharedKeysOption): SluiceError {
  const where = option.from === 'file' ? 'update the keys file (the Secret it is mounted from)' : 'change the environment variables and restart';
  return new SluiceError('SLUICE_ROUTE_NOT_FOUND', `token-auth takes keys every server shares, so GET /token rotates nothing; to rotate them, ${where}`);
}

/**
 * The `token-auth` plugin: TorchServe-compatible key authorisation. Its settings are checked when it
 * loads; the keys are made when the `auth` section puts it in front of an API (its provider's `start`),
 * and the key file is written only once the server listens on every port (`serving`), so a start that
 * fails leaves the key file of a server already running untouched. Until then `GET /token` answers 404.
 */
export default definePlugin({
  register(context) {
    const options = tokenAuthOptions(context.config, context.configDirectory);
    const shared = options.sharedKeys;
    if (shared !== undefined) {
      let provider: SharedKeyAuthProvider | undefined;
      context.auth({
        name: 'token-auth',
        async start() {
          provider ??= await createSharedKeyAuth(shared, context.logger);
        },
        authenticate(request) {
          if (provider === undefined) return Promise.reject(new SluiceError('SLUICE_INTERNAL', 'token-auth was asked to authenticate before it was started'));
          return provider.authenticate(request);
        },
      });
      context.endpoint(
        tokenEndpoint(() => {
          throw notRotatable(shared);
        }),
      );
      return;
    }
    let auth: TokenAuth | undefined;
    const started = (): TokenAuth => {
      if (auth === undefined) {
        throw new SluiceError('SLUICE_ROUTE_NOT_FOUND', 'token-auth guards no API of this server, so it has no keys to rotate; set `auth.management: token-auth` to use it');
      }
      return auth;
    };
    context.auth({
      name: 'token-auth',
      start() {
        auth ??= prepareTokenAuth(options, context.logger);
        return Promise.resolve();
      },
      serving: () => started().keys.publish(),
      authenticate: (request) => started().provider.authenticate(request),
    });
    context.endpoint(tokenEndpoint(() => started().keys));
  },
});
