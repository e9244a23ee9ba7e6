import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createJwtAuth, jwtAuthOptions } from '../../plugins/jwt-auth/index.js';
import { addRecordedIris } from '../support/auth-test-models.js';
import { recordingHandler } from '../support/handlers/recording-handler.js';
import { makeJwtFixture, tamperedToken, unsignedToken, type JwtFixture } from '../support/jwt-fixture.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const NOW_S = Math.floor(Date.now() / 1000);

/**
 * jwt-auth in front of the inference and management ports of a real server, with a JWKS and tokens made
 * by the test; the `recorded` model's handler counts the requests that got past the guard.
 */
describe('jwt-auth through a real server', () => {
  const handler = recordingHandler();
  let t: TestServer;
  let fixture: JwtFixture;
  let keys: { cleanup: () => Promise<void> };
  const predict = (token?: string): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/predictions/recorded`, { method: 'POST', json: SETOSA, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  const claims = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ iss: fixture.issuer, aud: fixture.audience, exp: NOW_S + 3600, ...extra });

  beforeAll(async () => {
    const temp = await makeTempDir('sluice-jwks-');
    keys = temp;
    fixture = await makeJwtFixture(temp.dir);
    const provider = await createJwtAuth(jwtAuthOptions({ jwksFile: fixture.jwksFile, issuer: fixture.issuer, audience: fixture.audience }, temp.dir), new RecordingLogger());
    t = await startTestServer({
      demoModels: ['iris'],
      prepare: (store) => addRecordedIris(store),
      handlers: [handler],
      auth: { inference: 'jwt-auth', management: 'jwt-auth' },
      authProviders: [provider],
    });
  });
  afterAll(async () => {
    await t.close();
    await keys.cleanup();
  });
  beforeEach(() => {
    handler.calls.count = 0;
  });

  it('serves a request with a token carrying the inference scope', async () => {
    expect(await predict(await fixture.sign({ scope: 'sluice:infer' }))).toMatchObject({ status: 200, body: { label: 'setosa' } });
    expect(handler.calls.count).toBe(1);
  });

  const cases: readonly { what: string; token: () => Promise<string | undefined>; status: number; errorCode: string }[] = [
    { what: 'no token', token: () => Promise.resolve(undefined), status: 401, errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS' },
    {
      what: 'a tampered token',
      token: async () => tamperedToken(await fixture.sign({ scope: 'openid' }), claims({ scope: 'sluice:infer' })),
      status: 401,
      errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS',
    },
    { what: 'an `alg: none` token', token: () => Promise.resolve(unsignedToken(claims({ scope: 'sluice:infer' }))), status: 401, errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' },
    { what: 'a token of another issuer', token: () => fixture.sign({ scope: 'sluice:infer', iss: 'https://elsewhere.example' }), status: 401, errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' },
    { what: 'a token for another audience', token: () => fixture.sign({ scope: 'sluice:infer', aud: 'someone-else' }), status: 401, errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' },
    { what: 'an expired token', token: () => fixture.sign({ scope: 'sluice:infer' }, { nowSeconds: NOW_S - 7200 }), status: 401, errorCode: 'SLUICE_AUTH_EXPIRED_CREDENTIALS' },
    { what: 'a token without the inference scope', token: () => fixture.sign({ scope: 'sluice:manage' }), status: 403, errorCode: 'SLUICE_AUTH_FORBIDDEN' },
  ];
  it.each(cases)('answers $what with $status $errorCode, and runs nothing', async ({ token, status, errorCode }) => {
    expect(await predict(await token())).toMatchObject({ status, body: { code: status, errorCode } });
    expect(handler.calls.count).toBe(0);
  });

  it('refuses a registration with an inference token, and registers nothing', async () => {
    const inferenceOnly = { authorization: `Bearer ${await fixture.sign({ scope: 'sluice:infer' })}` };
    const manager = { authorization: `Bearer ${await fixture.sign({ scope: 'sluice:manage' })}` };
    expect(await requestJson(`${t.management}/models?url=iris&model_name=sneaky`, { method: 'POST', headers: inferenceOnly })).toMatchObject({
      status: 403,
      body: { errorCode: 'SLUICE_AUTH_FORBIDDEN' },
    });
    expect(await requestJson(`${t.management}/models/sneaky`, { headers: manager })).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });

  it('leaves the metrics port open when the auth section does not name a provider for it', async () => {
    expect((await requestJson(`${t.metrics}/metrics`)).status).toBe(200);
  });
});
