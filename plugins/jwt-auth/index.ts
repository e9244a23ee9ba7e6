import { definePlugin, SluiceError, type Logger } from '../../src/sdk/index.js';
import { jwtAuthOptions, type JwtAuthOptions } from './jwt-auth-options.js';
import { JwtAuthProvider } from './jwt-auth-provider.js';
import { ReloadingJwks } from './reloading-jwks.js';

export { JWT_ALGORITHMS, JWT_AUTH_DEFAULTS, jwtAuthOptions, type JwtAlgorithm, type JwtAuthOptions, type ScopeMapping } from './jwt-auth-options.js';
export { JwtAuthProvider } from './jwt-auth-provider.js';
export { readJwksFile } from './jwks-file.js';
export { ReloadingJwks, UNKNOWN_KEY_CHECK_MS } from './reloading-jwks.js';
export { scopesInClaim } from './jwt-scopes.js';

/**
 * Reads the JWKS file and returns the `jwt-auth` guard, which reads the file again when it changes (see
 * {@link ReloadingJwks}). `now` is the clock tokens are checked against, and the one that times the looks
 * at the file (tests move it).
 */
export async function createJwtAuth(options: JwtAuthOptions, logger: Logger, now: () => number = Date.now): Promise<JwtAuthProvider> {
  const keys = await ReloadingJwks.open(options.jwksFile, options.jwksReloadIntervalSeconds * 1000, logger, now);
  logger.info('jwt-auth keys read', {
    jwksFile: options.jwksFile,
    jwksReloadIntervalSeconds: options.jwksReloadIntervalSeconds,
    issuer: options.issuer,
    audience: options.audience,
    algorithms: options.algorithms,
  });
  return new JwtAuthProvider(options, keys.getKey, now);
}

/** The `jwt-auth` plugin: bearer JWTs checked against a local JWKS, with scopes per API. */
export default definePlugin({
  register(context) {
    // The settings are required only when the `auth` section chooses jwt-auth, so they are read at start.
    let provider: JwtAuthProvider | undefined;
    context.auth({
      name: 'jwt-auth',
      async start() {
        provider ??= await createJwtAuth(jwtAuthOptions(context.config, context.configDirectory), context.logger);
      },
      authenticate(request) {
        if (provider === undefined) return Promise.reject(new SluiceError('SLUICE_INTERNAL', 'jwt-auth was asked to authenticate before it was started'));
        return provider.authenticate(request);
      },
    });
  },
});
