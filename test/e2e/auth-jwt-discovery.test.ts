import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../src/sdk/errors/index.js';
import { startIdentityProvider, type IdentityProvider, type ProviderKey } from '../support/identity-provider.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/**
 * jwt-auth configured as a fleet would configure it: the issuer's OpenID configuration names its JWKS URL,
 * served by an identity provider on loopback that the test controls, so keys rotate at the provider and
 * the server follows without a restart.
 */
describe('jwt-auth with OpenID discovery through a real server', () => {
  let idp: IdentityProvider;
  let first: ProviderKey;
  let t: TestServer;
  const predict = (token: string): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA, headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    ({ provider: idp, first } = await startIdentityProvider());
    t = await startTestServer({
      demoModels: ['iris'],
      auth: { inference: 'jwt-auth', management: 'jwt-auth' },
      config: { plugins: [{ name: 'jwt-auth', config: { discovery: true, issuer: idp.issuer, audience: idp.audience, jwksFetchCooldownSeconds: 1 } }] },
    });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  it('serves a request with a token signed by a key of the discovered JWKS', async () => {
    expect(await predict(await idp.sign(first))).toMatchObject({ status: 200, body: { label: 'setosa' } });
    expect(idp.requests('/.well-known/openid-configuration')).toBe(1);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['another audience', { aud: 'someone-else' }, 'SLUICE_AUTH_INVALID_CREDENTIALS'],
    ['another issuer', { iss: 'https://elsewhere.example' }, 'SLUICE_AUTH_INVALID_CREDENTIALS'],
    ['an expired token', { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }, 'SLUICE_AUTH_EXPIRED_CREDENTIALS'],
  ])('answers %s with 401', async (_case, claims, errorCode) => {
    expect(await predict(await idp.sign(first, claims))).toMatchObject({ status: 401, body: { errorCode } });
  });

  it('takes a key the provider adds without a restart, once its unknown kid has the keys fetched again', async () => {
    const second = await idp.newKey('second');
    const token = await idp.sign(second);
    expect(await predict(token)).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' } });
    idp.publish([first, second]);
    // Fetches are at least a second apart (jwksFetchCooldownSeconds): asked again until one has been made.
    let status = 0;
    while (status !== 200) {
      status = (await predict(token)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await predict(await idp.sign(first))).toMatchObject({ status: 200 });
  });
});

describe('jwt-auth refusing to start on a discovery it cannot use', () => {
  it.each<[string, (idp: IdentityProvider) => void, string]>([
    ['an OpenID configuration of another issuer', (idp) => { idp.answer('/.well-known/openid-configuration', { status: 200, body: { issuer: 'https://evil.example', jwks_uri: idp.jwksUrl } }); }, 'not the configured issuer'],
    ['a JWKS that answers 500', (idp) => { idp.answer('/jwks', { status: 500, body: {} }); }, 'it answered HTTP 500'],
  ])('stops the start on %s, naming the URL', async (_case, breakIt, reason) => {
    const { provider: idp } = await startIdentityProvider();
    breakIt(idp);
    const temp = await makeTempDir('sluice-e2e-');
    try {
      const error = await startTestServer({
        dir: temp.dir,
        auth: { inference: 'jwt-auth' },
        config: { plugins: [{ name: 'jwt-auth', config: { discovery: true, issuer: idp.issuer, audience: idp.audience } }] },
      }).then(
        async (t) => {
          await t.close();
          throw new Error('the server started');
        },
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(SluiceError);
      expect((error as SluiceError).code).toBe('SLUICE_PLUGIN_LOAD_FAILED');
      expect((error as SluiceError).message).toContain(idp.issuer);
      expect((error as SluiceError).message).toContain(reason);
    } finally {
      await temp.cleanup();
      await idp.close();
    }
  });
});
