import { isAbsolute, resolve } from 'node:path';
import { SluiceError, type AuthScope } from '../../src/sdk/index.js';

/**
 * Signature algorithms jwt-auth can accept: the public-key ones. `none` is not one of them, ever, nor are
 * the HMAC ones (HS256…): they verify with a shared secret, which the JWKS file (public keys only) cannot hold.
 */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number];

/** The scopes a JWT can grant, and the claim values that grant them. */
export type ScopeMapping = Readonly<Partial<Record<Exclude<AuthScope, 'api'>, string>>>;

/**
 * Where the keys tokens are verified with come from: a local JWKS file, a JWKS URL, or the URL the
 * issuer's OpenID configuration names (`<issuer>/.well-known/openid-configuration` → `jwks_uri`).
 */
export type JwksSource = { readonly from: 'file'; readonly file: string } | { readonly from: 'url'; readonly url: URL } | { readonly from: 'discovery'; readonly issuer: string };

/** jwt-auth's settings, defaults filled in and the JWKS path absolute. */
export interface JwtAuthOptions {
  readonly jwks: JwksSource;
  /** How often the JWKS is looked at for changes (the file) or fetched again (a URL), in seconds; 0: read once at start-up only. */
  readonly jwksReloadIntervalSeconds: number;
  /** The least time between two fetches of a JWKS URL, in seconds (a token of an unknown `kid` prompts one). */
  readonly jwksFetchCooldownSeconds: number;
  /** The longest one fetch of a JWKS URL or OpenID configuration may take, in milliseconds. */
  readonly jwksFetchTimeoutMs: number;
  /** Accepted `iss` values (one must match). */
  readonly issuer: readonly string[];
  /** Accepted `aud` values (one must be in the token's audience). */
  readonly audience: readonly string[];
  readonly algorithms: readonly JwtAlgorithm[];
  /** Leeway for `exp`, `nbf` and `iat`, in seconds. */
  readonly clockToleranceSeconds: number;
  /** The longest lifetime accepted, `exp` − `iat` (`exp` − now without `iat`), in seconds; none when unset. */
  readonly maxTokenLifetimeSeconds?: number;
  /** The claim holding the scopes: a space-separated string (`scope`) or an array of strings (`scp`). */
  readonly scopeClaim: string;
  readonly scopes: ScopeMapping;
}

/** The defaults, as in the manifest's config schema. */
export const JWT_AUTH_DEFAULTS = {
  discovery: false,
  jwksReloadIntervalSeconds: 60,
  jwksFetchCooldownSeconds: 10,
  jwksFetchTimeoutMs: 5000,
  algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'] as readonly JwtAlgorithm[],
  clockToleranceSeconds: 5,
  scopeClaim: 'scope',
  scopes: { inference: 'sluice:infer', management: 'sluice:manage', metrics: 'sluice:metrics' } as ScopeMapping,
};

function invalid(key: string, expected: string, got: unknown): SluiceError {
  return new SluiceError('SLUICE_PLUGIN_INVALID', `jwt-auth: \`config.${key}\` must be ${expected} (got ${got === undefined ? 'nothing' : JSON.stringify(got)})`, {
    plugin: 'jwt-auth',
    key,
  });
}

function stringList(config: Readonly<Record<string, unknown>>, key: string): readonly string[] {
  const value = config[key];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((item): item is string => typeof item === 'string' && item !== '')) {
    throw invalid(key, 'a non-empty string or list of strings', value);
  }
  return list;
}

function algorithms(value: unknown): readonly JwtAlgorithm[] {
  if (value === undefined) return JWT_AUTH_DEFAULTS.algorithms;
  const known: readonly unknown[] = JWT_ALGORITHMS;
  if (!Array.isArray(value) || value.length === 0 || !value.every((item): item is JwtAlgorithm => known.includes(item))) {
    const hmac = Array.isArray(value) && value.some((item) => typeof item === 'string' && /^HS\d+$/.test(item));
    const why = hmac ? ' (HMAC algorithms need a shared secret, and the JWKS file holds public keys only)' : '';
    throw invalid('algorithms', `a non-empty list of ${JWT_ALGORITHMS.join(', ')}${why}`, value);
  }
  return value;
}

function scopes(value: unknown): ScopeMapping {
  if (value === undefined) return JWT_AUTH_DEFAULTS.scopes;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('scopes', 'an object', value);
  const mapping: Partial<Record<keyof ScopeMapping, string>> = {};
  for (const [scope, claim] of Object.entries(value)) {
    if (scope !== 'inference' && scope !== 'management' && scope !== 'metrics') throw invalid(`scopes.${scope}`, 'one of inference, management, metrics', scope);
    if (typeof claim !== 'string' || claim === '') throw invalid(`scopes.${scope}`, 'a non-empty string', claim);
    mapping[scope] = claim;
  }
  return mapping;
}

function httpUrl(key: string, value: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw invalid(key, 'an http(s) URL', value);
  return url;
}

/** Where the keys come from: exactly one of `jwksFile`, `jwksUrl` and `discovery: true`. */
function jwksSource(config: Readonly<Record<string, unknown>>, configDirectory: string): JwksSource {
  const { jwksFile, jwksUrl } = config;
  const discovery = config['discovery'] ?? JWT_AUTH_DEFAULTS.discovery;
  if (typeof discovery !== 'boolean') throw invalid('discovery', 'true or false', discovery);
  const given = [jwksFile !== undefined && 'jwksFile', jwksUrl !== undefined && 'jwksUrl', discovery && 'discovery'].filter((key): key is string => key !== false);
  if (given.length !== 1) {
    const why = given.length === 0 ? 'none is set' : `${given.join(' and ')} are set`;
    throw new SluiceError('SLUICE_PLUGIN_INVALID', `jwt-auth: set exactly one of \`config.jwksFile\` (a local JWKS file), \`config.jwksUrl\` (a JWKS URL) or \`config.discovery: true\` (the issuer's OpenID configuration names the JWKS URL); ${why}`, {
      plugin: 'jwt-auth',
      key: given[1] ?? 'jwksFile',
    });
  }
  if (discovery) {
    const issuer = stringList(config, 'issuer');
    const [only] = issuer;
    if (issuer.length !== 1 || only === undefined) throw invalid('issuer', 'one issuer with `discovery: true` (its OpenID configuration names the keys)', issuer);
    httpUrl('issuer', only);
    return { from: 'discovery', issuer: only };
  }
  if (jwksUrl !== undefined) return { from: 'url', url: httpUrl('jwksUrl', jwksUrl) };
  if (typeof jwksFile !== 'string' || jwksFile === '') throw invalid('jwksFile', 'the path of a JWKS file', jwksFile);
  return { from: 'file', file: isAbsolute(jwksFile) ? jwksFile : resolve(configDirectory, jwksFile) };
}

/**
 * Reads jwt-auth's `config` (already checked against the manifest's schema by the loader; checked here
 * again for embedders that call the factory directly). A relative `jwksFile` resolves against
 * `configDirectory`.
 */
export function jwtAuthOptions(config: Readonly<Record<string, unknown>>, configDirectory: string): JwtAuthOptions {
  const jwks = jwksSource(config, configDirectory);
  const issuer = stringList(config, 'issuer');
  const cooldown = config['jwksFetchCooldownSeconds'] ?? JWT_AUTH_DEFAULTS.jwksFetchCooldownSeconds;
  if (typeof cooldown !== 'number' || !Number.isInteger(cooldown) || cooldown < 1) throw invalid('jwksFetchCooldownSeconds', 'an integer >= 1', cooldown);
  const timeout = config['jwksFetchTimeoutMs'] ?? JWT_AUTH_DEFAULTS.jwksFetchTimeoutMs;
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1) throw invalid('jwksFetchTimeoutMs', 'an integer >= 1', timeout);
  const reloadInterval = config['jwksReloadIntervalSeconds'] ?? JWT_AUTH_DEFAULTS.jwksReloadIntervalSeconds;
  if (typeof reloadInterval !== 'number' || !Number.isInteger(reloadInterval) || reloadInterval < 0) {
    throw invalid('jwksReloadIntervalSeconds', 'an integer >= 0 (0: read the file at start-up only)', reloadInterval);
  }
  const tolerance = config['clockToleranceSeconds'] ?? JWT_AUTH_DEFAULTS.clockToleranceSeconds;
  if (typeof tolerance !== 'number' || !Number.isInteger(tolerance) || tolerance < 0) throw invalid('clockToleranceSeconds', 'an integer >= 0', tolerance);
  const maxLifetime = config['maxTokenLifetimeSeconds'];
  if (maxLifetime !== undefined && (typeof maxLifetime !== 'number' || !Number.isInteger(maxLifetime) || maxLifetime < 1)) {
    throw invalid('maxTokenLifetimeSeconds', 'an integer >= 1', maxLifetime);
  }
  const scopeClaim = config['scopeClaim'] ?? JWT_AUTH_DEFAULTS.scopeClaim;
  if (typeof scopeClaim !== 'string' || scopeClaim === '') throw invalid('scopeClaim', 'a claim name', scopeClaim);
  return {
    jwks,
    jwksReloadIntervalSeconds: reloadInterval,
    jwksFetchCooldownSeconds: cooldown,
    jwksFetchTimeoutMs: timeout,
    issuer,
    audience: stringList(config, 'audience'),
    algorithms: algorithms(config['algorithms']),
    clockToleranceSeconds: tolerance,
    ...(maxLifetime === undefined ? {} : { maxTokenLifetimeSeconds: maxLifetime }),
    scopeClaim,
    scopes: scopes(config['scopes']),
  };
}
