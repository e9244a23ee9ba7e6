import type { JWTVerifyGetKey } from 'jose';
import { definePlugin, SluiceError, type Logger } from '../../src/sdk/index.js';
import { jwtAuthOptions, type JwtAuthOptions } from './jwt-auth-options.js';
import { JwtAuthProvider } from './jwt-auth-provider.js';
import { discoverJwksUrl } from './openid-discovery.js';
import { ReloadingJwks } from './reloading-jwks.js';
import { RemoteJwks } from './remote-jwks.js';

export { JWT_ALGORITHMS, JWT_AUTH_DEFAULTS, jwtAuthOptions, type JwksSource, type JwtAlgorithm, type JwtAuthOptions, type ScopeMapping } from './jwt-auth-options.js';
export { discoverJwksUrl, openidConfigurationUrl } from './openid-discovery.js';
export { RemoteJwks, type RemoteJwksTiming } from './remote-jwks.js';
export { JwtAuthProvider } from './jwt-auth-provider.js';
export { readJwksFile } from './jwks-file.js';
export { ReloadingJwks, UNKNOWN_KEY_CHECK_MS } from './reloading-jwks.js';
export { scopesInClaim } from './jwt-scopes.js';

/** The key resolver of `options`' JWKS: a file read again when it changes, or a URL (configured or discovered) fetched again as keys rotate. */
async function keysOf(options: JwtAuthOptions, logger: Logger, now: () => number): Promise<{ getKey: JWTVerifyGetKey; from: Record<string, unknown> }> {
  const { jwks } = options;
  if (jwks.from === 'file') {
    const keys = await ReloadingJwks.open(jwks.file, options.jwksReloadIntervalSeconds * 1000, logger, now);
    return { getKey: keys.getKey, from: { jwksFile: jwks.file } };
  }
  const url = jwks.from === 'url' ? jwks.url : await discoverJwksUrl(jwks.issuer, options.jwksFetchTimeoutMs);
  const timing = { refreshMs: options.jwksReloadIntervalSeconds * 1000, cooldownMs: options.jwksFetchCooldownSeconds * 1000, timeoutMs: options.jwksFetchTimeoutMs };
  const keys = await RemoteJwks.open(url, timing, logger, now);
  return { getKey: keys.getKey, from: { jwksUrl: url.href, ...(jwks.from === 'discovery' ? { discoveredFrom: jwks.issuer } : {}) } };
}

/**
 * Reads the JWKS (a file, a URL, or the URL the issuer's OpenID configuration names) and returns the
 * `jwt-auth` guard, which reads the keys again as they change (see {@link ReloadingJwks} and
 * {@link RemoteJwks}). `now` is the clock tokens are checked against, and the one that times the looks at
 * the keys (tests move it). A JWKS that cannot be read or used is thrown (`SLUICE_PLUGIN_LOAD_FAILED`).
 */
export async function createJwtAuth(options: JwtAuthOptions, logger: Logger, now: () => number = Date.now): Promise<JwtAuthProvider> {
  const keys = await keysOf(options, logger, now);
  logger.info('jwt-auth keys read', {
    ...keys.from,
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
