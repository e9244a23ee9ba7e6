import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { generateKeyPair } from 'jose';
import jwtAuthPlugin, { createJwtAuth, jwtAuthOptions, type JwtAuthProvider } from '../../../../plugins/jwt-auth/index.js';
import { authRequest, bearer } from '../../../support/auth-request.js';
import { fakePluginContext } from '../../../support/fake-plugin-context.js';
import { makeJwtFixture, tamperedToken, unsignedToken, type JwtFixture } from '../../../support/jwt-fixture.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const NOW_S = NOW / 1000;

/** Registers the plugin and starts its provider, as the server does when `auth` names jwt-auth. */
async function registerAndStart(context: ReturnType<typeof fakePluginContext>): Promise<void> {
  await jwtAuthPlugin.register(context);
  await context.providers[0]?.start?.();
}

describe('jwt-auth', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let fixture: JwtFixture;
  let provider: JwtAuthProvider;
  let clock: number;
  const config = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    jwksFile: 'jwks.json',
    issuer: fixture.issuer,
    audience: fixture.audience,
    ...extra,
  });
  const sign = (claims: Record<string, unknown> = { scope: 'sluice:infer' }): Promise<string> => fixture.sign(claims, { nowSeconds: NOW_S });

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    fixture = await makeJwtFixture(dir);
    clock = NOW;
    provider = await createJwtAuth(jwtAuthOptions(config(), dir), new RecordingLogger(), () => clock);
  });
  afterEach(() => cleanup());

  it('accepts a signed token carrying the scope of the API, with the subject as principal', async () => {
    await expect(provider.authenticate(authRequest('inference', bearer(await sign())))).resolves.toEqual({ subject: 'alice', scopes: ['inference'] });
  });

  it('reads space-separated scopes from `scope` by default', async () => {
    const token = await sign({ scope: 'openid sluice:manage sluice:infer' });
    await expect(provider.authenticate(authRequest('management', bearer(token)))).resolves.toMatchObject({ scopes: ['inference', 'management'] });
  });

  it('reads an array claim and a custom mapping when configured', async () => {
    const custom = await createJwtAuth(jwtAuthOptions(config({ scopeClaim: 'scp', scopes: { inference: 'predict' } }), dir), new RecordingLogger(), () => clock);
    await expect(custom.authenticate(authRequest('inference', bearer(await sign({ scp: ['predict'] }))))).resolves.toMatchObject({ scopes: ['inference'] });
    await expect(custom.authenticate(authRequest('inference', bearer(await sign({ scope: 'sluice:infer' }))))).rejects.toMatchObject({ code: 'SLUICE_AUTH_FORBIDDEN' });
  });

  it('refuses a token without the API scope with SLUICE_AUTH_FORBIDDEN naming the scope', async () => {
    await expect(provider.authenticate(authRequest('management', bearer(await sign())))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_FORBIDDEN',
      message: expect.stringContaining('sluice:manage') as unknown,
    });
  });

  it('takes the metrics or the management scope on the metrics API', async () => {
    await expect(provider.authenticate(authRequest('metrics', bearer(await sign({ scope: 'sluice:metrics' }))))).resolves.toMatchObject({ scopes: ['metrics'] });
    await expect(provider.authenticate(authRequest('metrics', bearer(await sign({ scope: 'sluice:manage' }))))).resolves.toMatchObject({ scopes: ['management'] });
    await expect(provider.authenticate(authRequest('metrics', bearer(await sign())))).rejects.toMatchObject({ code: 'SLUICE_AUTH_FORBIDDEN' });
  });

  it('refuses a request without a token with SLUICE_AUTH_MISSING_CREDENTIALS', async () => {
    await expect(provider.authenticate(authRequest('inference'))).rejects.toMatchObject({ code: 'SLUICE_AUTH_MISSING_CREDENTIALS' });
  });

  it('refuses a token that is not a JWT with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    await expect(provider.authenticate(authRequest('inference', bearer('not.a.jwt')))).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('refuses a tampered token with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    const token = tamperedToken(await sign(), { iss: fixture.issuer, aud: fixture.audience, exp: NOW_S + 3600, scope: 'sluice:infer sluice:manage' });
    await expect(provider.authenticate(authRequest('management', bearer(token)))).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('refuses an unsigned `alg: none` token with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    const token = unsignedToken({ iss: fixture.issuer, aud: fixture.audience, exp: NOW_S + 3600, scope: 'sluice:infer' });
    await expect(provider.authenticate(authRequest('inference', bearer(token)))).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('refuses a token signed by a key outside the JWKS with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const token = await fixture.sign({ scope: 'sluice:infer' }, { key: privateKey, nowSeconds: NOW_S });
    await expect(provider.authenticate(authRequest('inference', bearer(token)))).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('refuses a token whose algorithm is not allowed with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    const rsOnly = await createJwtAuth(jwtAuthOptions(config({ algorithms: ['RS256'] }), dir), new RecordingLogger(), () => clock);
    await expect(rsOnly.authenticate(authRequest('inference', bearer(await sign())))).rejects.toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
  });

  it('refuses a token of another issuer with SLUICE_AUTH_INVALID_CREDENTIALS naming the claim', async () => {
    await expect(provider.authenticate(authRequest('inference', bearer(await sign({ scope: 'sluice:infer', iss: 'https://elsewhere.example' }))))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_INVALID_CREDENTIALS',
      message: expect.stringContaining('"iss"') as unknown,
    });
  });

  it('refuses a token for another audience with SLUICE_AUTH_INVALID_CREDENTIALS naming the claim', async () => {
    await expect(provider.authenticate(authRequest('inference', bearer(await sign({ scope: 'sluice:infer', aud: 'other' }))))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_INVALID_CREDENTIALS',
      message: expect.stringContaining('"aud"') as unknown,
    });
  });

  it('refuses a token past its expiry and the clock tolerance with SLUICE_AUTH_EXPIRED_CREDENTIALS', async () => {
    const token = await sign();
    clock = NOW + 3600_000 + 5_000 - 1_000;
    await expect(provider.authenticate(authRequest('inference', bearer(token)))).resolves.toMatchObject({ subject: 'alice' });
    clock = NOW + 3600_000 + 5_000;
    await expect(provider.authenticate(authRequest('inference', bearer(token)))).rejects.toMatchObject({ code: 'SLUICE_AUTH_EXPIRED_CREDENTIALS' });
  });

  it('refuses a token without `exp` with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    await expect(provider.authenticate(authRequest('inference', bearer(await sign({ scope: 'sluice:infer', exp: undefined }))))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_INVALID_CREDENTIALS',
      message: expect.stringContaining('"exp"') as unknown,
    });
  });

  it('refuses a token issued further in the future than the clock tolerance with SLUICE_AUTH_INVALID_CREDENTIALS saying so', async () => {
    await expect(provider.authenticate(authRequest('inference', bearer(await fixture.sign({ scope: 'sluice:infer' }, { nowSeconds: NOW_S + 5 }))))).resolves.toMatchObject({
      subject: 'alice',
    });
    await expect(provider.authenticate(authRequest('inference', bearer(await fixture.sign({ scope: 'sluice:infer' }, { nowSeconds: NOW_S + 6 }))))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_INVALID_CREDENTIALS',
      message:
        'the token was refused: its "iat" (issued at) lies 6 s in the future, beyond the clock tolerance of 5 s; check the clocks of the identity provider and the server',
    });
  });

  it('accepts a token of any lifetime while maxTokenLifetimeSeconds is unset', async () => {
    const token = await fixture.sign({ scope: 'sluice:infer' }, { nowSeconds: NOW_S, expiresInSeconds: 10 * 365 * 86_400 });
    await expect(provider.authenticate(authRequest('inference', bearer(token)))).resolves.toMatchObject({ subject: 'alice' });
  });

  it('refuses a token whose exp lies more than maxTokenLifetimeSeconds after its iat with SLUICE_AUTH_INVALID_CREDENTIALS', async () => {
    const limited = await createJwtAuth(jwtAuthOptions(config({ maxTokenLifetimeSeconds: 3600 }), dir), new RecordingLogger(), () => clock);
    const issuedEarlier = NOW_S - 600;
    await expect(limited.authenticate(authRequest('inference', bearer(await fixture.sign({ scope: 'sluice:infer' }, { nowSeconds: issuedEarlier, expiresInSeconds: 3600 }))))).resolves.toMatchObject({
      subject: 'alice',
    });
    await expect(limited.authenticate(authRequest('inference', bearer(await fixture.sign({ scope: 'sluice:infer' }, { nowSeconds: issuedEarlier, expiresInSeconds: 3601 }))))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_INVALID_CREDENTIALS',
      message:
        'the token was refused: its "exp" lies 3601 s after its "iat", more than `maxTokenLifetimeSeconds` (3600 s) allows; get a token with a shorter lifetime from your identity provider',
    });
  });

  it('measures the lifetime of a token without iat from now, give or take the clock tolerance', async () => {
    const limited = await createJwtAuth(jwtAuthOptions(config({ maxTokenLifetimeSeconds: 3600 }), dir), new RecordingLogger(), () => clock);
    const withoutIat = (exp: number): Promise<string> => sign({ scope: 'sluice:infer', iat: undefined, exp });
    await expect(limited.authenticate(authRequest('inference', bearer(await withoutIat(NOW_S + 3605))))).resolves.toMatchObject({ subject: 'alice' });
    await expect(limited.authenticate(authRequest('inference', bearer(await withoutIat(NOW_S + 3606))))).rejects.toMatchObject({
      code: 'SLUICE_AUTH_INVALID_CREDENTIALS',
      message: expect.stringContaining('its "exp" lies 3606 s after now, more than `maxTokenLifetimeSeconds` (3600 s) allows') as unknown,
    });
  });

  it.each([0, 1.5, '3600'])('refuses a maxTokenLifetimeSeconds of %j, naming the key', (value) => {
    expect(() => jwtAuthOptions(config({ maxTokenLifetimeSeconds: value }), dir)).toThrow(
      expect.objectContaining({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringContaining('`config.maxTokenLifetimeSeconds` must be an integer >= 1') as unknown }),
    );
  });

  it('registers the jwt-auth provider through the plugin', async () => {
    const context = fakePluginContext('jwt-auth', config(), dir);
    await jwtAuthPlugin.register(context);
    expect(context.providers.map((registered) => registered.name)).toEqual(['jwt-auth']);
    expect(context.endpoints).toEqual([]);
  });

  it('refuses to start with a JWKS file holding a private key', async () => {
    await writeFile(join(dir, 'private.json'), JSON.stringify({ keys: [{ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' }] }));
    await expect(registerAndStart(fakePluginContext('jwt-auth', config({ jwksFile: 'private.json' }), dir))).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: expect.stringContaining('public') as unknown,
    });
  });

  it.each([
    ['a broken RSA key', { kty: 'RSA', n: '!!', e: 'AQAB', kid: 'g' }, /^jwt-auth: cannot use the JWKS file .*: key 0 \(kid "g"\) is not a usable public key: /],
    ['a secret oct key', { kty: 'oct', k: 'c2VjcmV0', kid: 's' }, /key 0 \(kid "s"\) is a secret \(oct\) key; the file must hold public keys only$/],
  ])('refuses to start with a JWKS file holding %s, naming the key', async (_what, key, message) => {
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ keys: [key] }));
    await expect(registerAndStart(fakePluginContext('jwt-auth', config({ jwksFile: 'bad.json' }), dir))).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: expect.stringMatching(message) as unknown,
    });
  });

  it('refuses to start with an RSA key under 2048 bits', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    await writeFile(join(dir, 'short.json'), JSON.stringify({ keys: [publicKey.export({ format: 'jwk' })] }));
    await expect(registerAndStart(fakePluginContext('jwt-auth', config({ jwksFile: 'short.json' }), dir))).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: expect.stringMatching(/key 0 has a 1024-bit RSA modulus; RS and PS tokens need at least 2048 bits$/) as unknown,
    });
  });

  it('refuses to start without a JWKS file, naming the path', async () => {
    await expect(registerAndStart(fakePluginContext('jwt-auth', config({ jwksFile: 'missing.json' }), dir))).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: expect.stringContaining(join(dir, 'missing.json')) as unknown,
    });
  });

  it('loads without settings while no API uses it, and needs them once one does', async () => {
    const context = fakePluginContext('jwt-auth', {}, dir);
    await jwtAuthPlugin.register(context);
    await expect(context.providers[0]?.start?.()).rejects.toMatchObject({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringContaining('jwksFile') as unknown });
  });

  it('refuses HMAC algorithms, whose shared secret a JWKS file of public keys cannot hold', () => {
    expect(() => jwtAuthOptions(config({ algorithms: ['RS256', 'HS256'] }), dir)).toThrow(
      expect.objectContaining({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringContaining('HMAC algorithms need a shared secret') as unknown }),
    );
  });

  it('refuses `none` among the allowed algorithms', () => {
    expect(() => jwtAuthOptions(config({ algorithms: ['none'] }), dir)).toThrow(expect.objectContaining({ code: 'SLUICE_PLUGIN_INVALID' }));
  });
});
