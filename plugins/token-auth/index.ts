import { definePlugin, SluiceError, type AuthProvider, type Endpoint, type Logger } from '../../src/plugins/sdk/index.js';
import { tokenAuthOptions, type TokenAuthOptions } from './token-auth-options.js';
import { TokenAuthProvider } from './token-auth-provider.js';
import { tokenEndpoint } from './token-endpoint.js';
import { TokenKeyService } from './token-key-service.js';

export { TOKEN_AUTH_DEFAULTS, tokenAuthOptions, type TokenAuthOptions } from './token-auth-options.js';
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
 * Makes fresh keys, writes the key file (mode 0600) and returns the `token-auth` guard and its
 * `GET /token` endpoint. `now` is the clock keys expire by (tests move it).
 */
export async function createTokenAuth(options: TokenAuthOptions, logger: Logger, now: () => number = Date.now): Promise<TokenAuth> {
  const keys = await TokenKeyService.start(options, logger, now);
  return { provider: new TokenAuthProvider(keys), endpoint: tokenEndpoint(() => keys), keys };
}

/**
 * The `token-auth` plugin: TorchServe-compatible key authorisation. Its settings are checked when it
 * loads; the keys are made and the key file written only when the `auth` section puts it in front of an
 * API (its provider's `start`). Until then `GET /token` answers 404.
 */
export default definePlugin({
  register(context) {
    const options = tokenAuthOptions(context.config, context.configDirectory);
    let auth: TokenAuth | undefined;
    const started = (): TokenAuth => {
      if (auth === undefined) {
        throw new SluiceError('SLUICE_ROUTE_NOT_FOUND', 'token-auth guards no API of this server, so it has no keys to rotate; set `auth.management: token-auth` to use it');
      }
      return auth;
    };
    context.auth({
      name: 'token-auth',
      async start() {
        auth ??= await createTokenAuth(options, context.logger);
      },
      authenticate: (request) => started().provider.authenticate(request),
    });
    context.endpoint(tokenEndpoint(() => started().keys));
  },
});
