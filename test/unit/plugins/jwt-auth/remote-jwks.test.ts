import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createJwtAuth, jwtAuthOptions, type JwtAuthProvider } from '../../../../plugins/jwt-auth/index.js';
import { authRequest, bearer } from '../../../support/auth-request.js';
import { startIdentityProvider, type IdentityProvider, type ProviderKey } from '../../../support/identity-provider.js';
import { startLoopbackFileServer } from '../../../support/loopback-file-server.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { rejection } from '../../../support/rejection.js';

const DISCOVERY = '/.well-known/openid-configuration';

describe('jwt-auth with a JWKS URL or OpenID discovery', () => {
  let idp: IdentityProvider;
  let first: ProviderKey;
  let logger: RecordingLogger;
  let clock: number;

  beforeEach(async () => {
    ({ provider: idp, first } = await startIdentityProvider());
    logger = new RecordingLogger();
    clock = Date.now();
  });
  afterEach(() => idp.close());

  const start = (extra: Record<string, unknown> = { jwksUrl: idp.jwksUrl }): Promise<JwtAuthProvider> =>
    createJwtAuth(jwtAuthOptions({ issuer: idp.issuer, audience: idp.audience, ...extra }, '/'), logger, () => clock);
  const verify = (provider: JwtAuthProvider, token: string): Promise<unknown> => provider.authenticate(authRequest('inference', bearer(token)));
  const warnings = (): string[] => logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);

  it('verifies tokens against the keys fetched from the JWKS URL, fetched once', async () => {
    const provider = await start();
    await expect(verify(provider, await idp.sign(first))).resolves.toEqual({ subject: 'alice', scopes: ['inference', 'management'] });
    await expect(verify(provider, await idp.sign(first))).resolves.toMatchObject({ subject: 'alice' });
    expect(idp.requests('/jwks')).toBe(1);
  });

  it('finds the JWKS URL through the issuer\'s OpenID configuration', async () => {
    const provider = await start({ discovery: true });
    await expect(verify(provider, await idp.sign(first))).resolves.toMatchObject({ subject: 'alice' });
    expect([idp.requests(DISCOVERY), idp.requests('/jwks')]).toEqual([1, 1]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }, 'SLUICE_AUTH_EXPIRED_CREDENTIALS', 'the token has expired'],
    ['a token of another issuer', { iss: 'https://elsewhere.example' }, 'SLUICE_AUTH_INVALID_CREDENTIALS', 'unexpected "iss" claim value'],
    ['a token for another audience', { aud: 'someone-else' }, 'SLUICE_AUTH_INVALID_CREDENTIALS', 'unexpected "aud" claim value'],
  ])('refuses %s with 401', async (_case, claims, code, message) => {
    const provider = await start();
    const error = await rejection(verify(provider, await idp.sign(first, claims)));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });

  it('fetches the keys at once for a token of an unknown kid, then at most once per cooldown', async () => {
    const provider = await start();
    const second = await idp.newKey('second');
    const third = await idp.newKey('third');
    idp.publish([first, second]);
    // Fetched at start-up: the cooldown (10 s) has not passed, so the unknown kid is refused without a fetch.
    expect(await rejection(verify(provider, await idp.sign(second)))).toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    expect(idp.requests('/jwks')).toBe(1);
    clock += 10_000;
    await expect(verify(provider, await idp.sign(second))).resolves.toMatchObject({ subject: 'alice' });
    expect(idp.requests('/jwks')).toBe(2);
    // Tokens of made-up kids: refused, and no fetch until the cooldown has passed again.
    for (let i = 0; i < 5; i++) expect(await rejection(verify(provider, await idp.sign(third)))).toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    expect(idp.requests('/jwks')).toBe(2);
  });

  it('fetches the keys again after the reload interval, so a key the provider dropped stops verifying', async () => {
    const remote = await createJwtAuth(jwtAuthOptions({ issuer: idp.issuer, audience: idp.audience, jwksUrl: idp.jwksUrl }, '/'), logger, () => clock);
    const second = await idp.newKey('second');
    idp.publish([second]);
    clock += 60_000;
    // This token prompts the fetch in the background and is verified with the keys in use meanwhile.
    await expect(verify(remote, await idp.sign(first))).resolves.toMatchObject({ subject: 'alice' });
    await waitForRequests(idp, '/jwks', 2);
    await waitFor(async () => (await verify(remote, await idp.sign(first)).then(() => 'passed', () => 'refused')) === 'refused');
    await expect(verify(remote, await idp.sign(second))).resolves.toMatchObject({ subject: 'alice' });
  });

  it('keeps verifying with the keys it has while the JWKS URL fails, with one warning, and recovers', async () => {
    const provider = await start();
    idp.answer('/jwks', { status: 503, body: { error: 'down' } });
    clock += 60_000;
    await expect(verify(provider, await idp.sign(first))).resolves.toMatchObject({ subject: 'alice' });
    await waitForRequests(idp, '/jwks', 2);
    await waitFor(() => Promise.resolve(warnings().length === 1));
    expect(warnings()).toEqual([
      `jwt-auth: cannot use the JWKS at ${idp.jwksUrl}: it answered HTTP 503; expected 200 with a JSON body; the keys fetched before stay in use, and the fetch is tried again in 10 s`,
    ]);
    // A token of an unknown kid while the URL fails: refused with 401, the keys it has kept.
    clock += 10_000;
    const second = await idp.newKey('second');
    expect(await rejection(verify(provider, await idp.sign(second)))).toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    await expect(verify(provider, await idp.sign(first))).resolves.toMatchObject({ subject: 'alice' });
    expect(warnings()).toHaveLength(1);
    idp.answer('/jwks', undefined);
    idp.publish([first, second]);
    clock += 10_000;
    await expect(verify(provider, await idp.sign(second))).resolves.toMatchObject({ subject: 'alice' });
  });

  describe('refuses to start, naming the URL and what is wrong', () => {
    const startFailure = async (extra: Record<string, unknown>): Promise<{ code: string; message: string }> => {
      const error = await rejection(start(extra));
      return { code: error.code, message: error.message };
    };

    it('when the JWKS URL cannot be reached', async () => {
      const gone = await startLoopbackFileServer((_request, response) => response.end());
      await gone.close();
      const { code, message } = await startFailure({ jwksUrl: `${gone.url}/jwks` });
      expect(code).toBe('SLUICE_PLUGIN_LOAD_FAILED');
      expect(message).toMatch(new RegExp(`^jwt-auth: cannot use the JWKS at ${gone.url}/jwks: fetch failed \\(.*ECONNREFUSED.*\\)$`));
    });

    it.each<[string, number, unknown, string]>([
      ['answers 500', 500, { error: 'boom' }, 'it answered HTTP 500; expected 200 with a JSON body'],
      ['answers a redirect', 302, '', 'it answered HTTP 302, a redirect to https://elsewhere.example/jwks, which is not followed; expected 200 with a JSON body'],
      ['is not JSON', 200, '<html>', 'its body is not JSON ('],
      ['has no keys', 200, { keys: [] }, 'it must be a JSON object with a non-empty "keys" list'],
      ['answers a body over a mebibyte', 200, `{"keys": [], "padding": "${'x'.repeat(1024 * 1024)}"}`, 'its body is larger than 1048576 bytes'],
      ['holds a private key', 200, { keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' }] }, 'every key must be a JWK object, and a public one (no "d" member)'],
    ])('when the JWKS %s', async (_case, status, body, reason) => {
      idp.answer('/jwks', { status, body, ...(status === 302 ? { headers: { location: 'https://elsewhere.example/jwks' } } : {}) });
      const { code, message } = await startFailure({ jwksUrl: idp.jwksUrl });
      expect(code).toBe('SLUICE_PLUGIN_LOAD_FAILED');
      // A body that is not JSON is named with the parser's own words, which vary between Node.js versions.
      expect(message.startsWith(`jwt-auth: cannot use the JWKS at ${idp.jwksUrl}: ${reason}`)).toBe(true);
    });

    it.each<[string, (issuer: string) => { status: number; body: unknown }, string]>([
      ['is missing', () => ({ status: 404, body: { error: 'not found' } }), 'it answered HTTP 404; expected 200 with a JSON body'],
      ['is not JSON', () => ({ status: 200, body: 'not json' }), 'its body is not JSON ('],
      ['is a list', () => ({ status: 200, body: [] }), 'it is not a JSON object'],
      ['names another issuer', (issuer) => ({ status: 200, body: { issuer: 'https://evil.example', jwks_uri: `${issuer}/jwks` } }), 'its "issuer" is "https://evil.example", not the configured issuer'],
      ['has no jwks_uri', (issuer) => ({ status: 200, body: { issuer } }), 'it has no "jwks_uri" string (got null)'],
      ['has a jwks_uri that is no URL', (issuer) => ({ status: 200, body: { issuer, jwks_uri: 'keys' } }), 'its "jwks_uri" "keys" is not a URL'],
      ['has a jwks_uri of another scheme', (issuer) => ({ status: 200, body: { issuer, jwks_uri: 'file:///etc/passwd' } }), 'its "jwks_uri" "file:///etc/passwd" is not an http(s) URL'],
    ])('when the OpenID configuration %s', async (_case, answer, reason) => {
      idp.answer(DISCOVERY, answer(idp.issuer));
      const { code, message } = await startFailure({ discovery: true });
      expect(code).toBe('SLUICE_PLUGIN_LOAD_FAILED');
      expect(message).toContain(`jwt-auth: cannot use the OpenID configuration at ${idp.issuer}${DISCOVERY}: ${reason}`);
    });
  });
});

describe('jwt-auth options for the JWKS source', () => {
  const base = { issuer: 'https://idp.example', audience: 'sluice' };

  it.each<[string, Record<string, unknown>, string]>([
    ['no source', {}, 'set exactly one of `config.jwksFile` (a local JWKS file), `config.jwksUrl` (a JWKS URL) or `config.discovery: true`'],
    ['two sources', { jwksFile: 'j.json', jwksUrl: 'https://idp.example/jwks' }, 'jwksFile and jwksUrl are set'],
    ['a jwksUrl that is no URL', { jwksUrl: 'idp.example/jwks' }, '`config.jwksUrl` must be an http(s) URL'],
    ['a jwksUrl of another scheme', { jwksUrl: 'ftp://idp.example/jwks' }, '`config.jwksUrl` must be an http(s) URL'],
    ['discovery with two issuers', { discovery: true, issuer: ['https://a.example', 'https://b.example'] }, '`config.issuer` must be one issuer with `discovery: true`'],
    ['discovery with an issuer that is no URL', { discovery: true, issuer: 'idp' }, '`config.issuer` must be an http(s) URL'],
    ['a cooldown of 0', { jwksUrl: 'https://idp.example/jwks', jwksFetchCooldownSeconds: 0 }, '`config.jwksFetchCooldownSeconds` must be an integer >= 1'],
  ])('refuses %s', (_case, config, message) => {
    expect(() => jwtAuthOptions({ ...base, ...config }, '/')).toThrow(expect.objectContaining({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringContaining(message) as unknown }));
  });

  it('reads each source', () => {
    expect(jwtAuthOptions({ ...base, jwksFile: 'keys/jwks.json' }, '/etc/sluice').jwks).toEqual({ from: 'file', file: '/etc/sluice/keys/jwks.json' });
    expect(jwtAuthOptions({ ...base, jwksUrl: 'https://idp.example/jwks' }, '/').jwks).toEqual({ from: 'url', url: new URL('https://idp.example/jwks') });
    expect(jwtAuthOptions({ ...base, discovery: true }, '/').jwks).toEqual({ from: 'discovery', issuer: 'https://idp.example' });
  });
});

/** Resolves once `check` is true, looking again after each turn of timers (fetches run on real sockets). */
async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 10));
}

function waitForRequests(idp: IdentityProvider, path: string, count: number): Promise<void> {
  return waitFor(() => Promise.resolve(idp.requests(path) >= count));
}
