import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { startLoopbackFileServer, type LoopbackFileServer } from './loopback-file-server.js';

/** What the provider answers on one path: a status and a body (JSON unless a string). */
export interface ProviderAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One signing key of the provider: its public JWK (with `kid`) and its private half. */
export interface ProviderKey {
  readonly kid: string;
  readonly jwk: JWK;
  readonly privateKey: CryptoKey;
}

/**
 * An OpenID identity provider on a loopback port, for tests: it serves its OpenID configuration at
 * `/.well-known/openid-configuration` (issuer: its own URL, `jwks_uri`: `/jwks`) and its public keys at
 * `/jwks`, and signs tokens with its keys. Tests change what it serves ({@link answer}, {@link publish})
 * and read how often each path was asked for ({@link requests}).
 */
export interface IdentityProvider {
  /** `http://127.0.0.1:<port>`, also its issuer. */
  readonly issuer: string;
  readonly jwksUrl: string;
  readonly audience: string;
  /** Requests per path so far. */
  requests(path: string): number;
  /** Makes a new ES256 key with `kid` (not published until {@link publish}). */
  newKey(kid: string): Promise<ProviderKey>;
  /** Serves exactly `keys` at `/jwks`. */
  publish(keys: readonly ProviderKey[]): void;
  /** Serves `answer` on `path` instead (a broken document, a 500); undefined restores the default. */
  answer(path: string, answer: ProviderAnswer | undefined): void;
  /** A token signed with `key` for this issuer and audience, valid for an hour; `claims` add or override. */
  sign(key: ProviderKey, claims?: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

/** Starts an {@link IdentityProvider} with one published key, `kid: first`. */
export async function startIdentityProvider(): Promise<{ provider: IdentityProvider; first: ProviderKey }> {
  const counts = new Map<string, number>();
  const overrides = new Map<string, ProviderAnswer>();
  let published: readonly ProviderKey[] = [];
  let issuer = '';
  const defaults = (path: string): ProviderAnswer => {
    if (path === '/.well-known/openid-configuration') return { status: 200, body: { issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: ['ES256'] } };
    if (path === '/jwks') return { status: 200, body: { keys: published.map((key) => key.jwk) } };
    return { status: 404, body: { error: 'not found' } };
  };
  const server: LoopbackFileServer = await startLoopbackFileServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const { status, body, headers } = overrides.get(path) ?? defaults(path);
    response.writeHead(status, { 'content-type': 'application/json', connection: 'close', ...headers });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  issuer = server.url;
  const newKey = async (kid: string): Promise<ProviderKey> => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    return { kid, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }, privateKey };
  };
  const provider: IdentityProvider = {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    audience: 'sluice',
    requests: (path) => counts.get(path) ?? 0,
    newKey,
    publish: (keys) => {
      published = keys;
    },
    answer: (path, answer) => {
      if (answer === undefined) overrides.delete(path);
      else overrides.set(path, answer);
    },
    sign: (key, claims = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: 'sluice', sub: 'alice', iat: now, exp: now + 3600, scope: 'sluice:infer sluice:manage', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: key.kid })
        .sign(key.privateKey);
    },
    close: () => server.close(),
  };
  const first = await newKey('first');
  provider.publish([first]);
  return { provider, first };
}
