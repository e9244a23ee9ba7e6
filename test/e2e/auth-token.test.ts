import { chmod, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createTokenAuth, tokenAuthOptions, type TokenAuth } from '../../plugins/token-auth/index.js';
import { addRecordedIris } from '../support/auth-test-models.js';
import { emptyEndpointContext, endpointRequest } from '../support/fake-plugin-context.js';
import { recordingHandler } from '../support/handlers/recording-handler.js';
import { parseRawAnswer, rawExchange } from '../support/raw-http.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { permissionsOf } from '../support/file-mode.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const MINUTE = 60_000;

/**
 * token-auth in front of all three ports of a real server. The provider is built by the test (with a clock
 * the test moves) and handed to the server; the `recorded` model's handler counts the requests that got
 * past the guard.
 */
describe('token-auth through a real server', () => {
  const handler = recordingHandler();
  let t: TestServer;
  let auth: TokenAuth;
  let clock = Date.parse('2030-01-01T00:00:00Z');
  let keys: { cleanup: () => Promise<void> };
  const bearer = (type: 'inference' | 'management' | 'api'): Record<string, string> => ({ authorization: `Bearer ${auth.keys.current(type).key}` });
  const predict = (headers: Record<string, string> = {}): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/predictions/recorded`, { method: 'POST', json: SETOSA, headers });

  beforeAll(async () => {
    const temp = await makeTempDir('sluice-keys-');
    keys = temp;
    auth = await createTokenAuth(tokenAuthOptions({}, temp.dir), new RecordingLogger(), () => clock);
    t = await startTestServer({
      demoModels: ['iris'],
      prepare: (store) => addRecordedIris(store),
      handlers: [handler],
      auth: { inference: 'token-auth', management: 'token-auth', metrics: 'token-auth' },
      authProviders: [auth.provider],
    });
  });
  afterAll(async () => {
    await t.close();
    await keys.cleanup();
  });
  beforeEach(() => {
    handler.calls.count = 0;
  });

  it('serves a request with the inference key', async () => {
    expect(await predict(bearer('inference'))).toMatchObject({ status: 200, body: { label: 'setosa' } });
    expect(handler.calls.count).toBe(1);
  });

  it('answers a request without a token 401 SLUICE_AUTH_MISSING_CREDENTIALS in the TorchServe body, and runs nothing', async () => {
    const answer = await predict();
    expect(answer).toMatchObject({
      status: 401,
      body: { code: 401, type: 'UnauthorizedException', errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS', message: expect.stringContaining('Bearer') as unknown },
    });
    expect(handler.calls.count).toBe(0);
  });

  it('answers a wrong token 401 SLUICE_AUTH_INVALID_CREDENTIALS, and runs nothing', async () => {
    expect(await predict({ authorization: 'Bearer not-a-key' })).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' } });
    expect(handler.calls.count).toBe(0);
  });

  it('answers the management key on the inference API 403 SLUICE_AUTH_FORBIDDEN, and runs nothing', async () => {
    expect(await predict(bearer('management'))).toMatchObject({
      status: 403,
      body: { code: 403, type: 'ForbiddenException', errorCode: 'SLUICE_AUTH_FORBIDDEN' },
    });
    expect(handler.calls.count).toBe(0);
  });

  it('challenges a request without a token with WWW-Authenticate: Bearer, on the lane and the framework routes', async () => {
    const challenge = 'Bearer realm="sluice"';
    expect((await predict()).headers.get('www-authenticate')).toBe(challenge);
    expect((await requestJson(`${t.inference}/v2/models/recorded`)).headers.get('www-authenticate')).toBe(challenge);
    expect((await requestJson(`${t.management}/models`)).headers.get('www-authenticate')).toBe(challenge);
  });

  it('challenges a refused token, or another scheme, with error="invalid_token", and a 403 with nothing', async () => {
    const refused = 'Bearer realm="sluice", error="invalid_token"';
    expect((await predict({ authorization: 'Bearer not-a-key' })).headers.get('www-authenticate')).toBe(refused);
    expect((await requestJson(`${t.metrics}/metrics`, { headers: { authorization: 'Basic dXNlcjpwYXNz' } })).headers.get('www-authenticate')).toBe(refused);
    const forbidden = await predict(bearer('management'));
    expect({ status: forbidden.status, challenge: forbidden.headers.get('www-authenticate') }).toEqual({ status: 403, challenge: null });
  });

  it.each([
    ['the lane', 'POST /predictions/recorded'],
    ['the framework', 'POST /predictions/recorded/1.0'],
  ])('refuses two Authorization headers on %s, even when the first holds the key, and runs nothing', async (_path, route) => {
    const body = JSON.stringify(SETOSA);
    const request = (first: string, second: string): string =>
      `${route} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      `Authorization: ${first}\r\nAuthorization: ${second}\r\nConnection: close\r\n\r\n${body}`;
    const key = `Bearer ${auth.keys.current('inference').key}`;
    for (const [first, second] of [[key, 'Bearer not-a-key'], ['Bearer not-a-key', key], [key, key]] as const) {
      const answer = parseRawAnswer(await rawExchange(t.inference, request(first, second)));
      expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' } });
    }
    expect(handler.calls.count).toBe(0);
  });

  it('answers /v2 routes in the OIP error body', async () => {
    const answer = await requestJson(`${t.inference}/v2/models/recorded/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: SETOSA }] },
    });
    expect(answer).toEqual({ status: 401, headers: expect.anything() as unknown, body: { error: expect.any(String) as unknown, errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS' } });
  });

  it('keeps /ping and the OIP health routes open', async () => {
    expect(await requestJson(`${t.inference}/ping`)).toMatchObject({ status: 200, body: { status: 'Healthy' } });
    expect((await requestJson(`${t.inference}/v2/health/live`)).status).toBe(200);
    expect((await requestJson(`${t.inference}/v2/health/ready`)).status).toBe(200);
  });

  it('guards unknown routes too, so the route list cannot be probed without a key', async () => {
    expect(await requestJson(`${t.inference}/no-such-route`)).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS' } });
    expect(await requestJson(`${t.inference}/no-such-route`, { headers: bearer('inference') })).toMatchObject({ status: 404 });
  });

  it('refuses a registration without the management key, and registers nothing', async () => {
    const register = `${t.management}/models?url=iris&model_name=sneaky`;
    expect(await requestJson(register, { method: 'POST' })).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS' } });
    expect(await requestJson(register, { method: 'POST', headers: bearer('inference') })).toMatchObject({ status: 403, body: { errorCode: 'SLUICE_AUTH_FORBIDDEN' } });
    expect(await requestJson(register, { method: 'POST', headers: bearer('api') })).toMatchObject({ status: 403, body: { errorCode: 'SLUICE_AUTH_FORBIDDEN' } });
    expect(await requestJson(`${t.management}/models/sneaky`, { headers: bearer('management') })).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });

  it('serves metrics with the management key and refuses the inference key', async () => {
    expect((await requestJson(`${t.metrics}/metrics`, { headers: bearer('management') })).status).toBe(200);
    expect(await requestJson(`${t.metrics}/metrics`, { headers: bearer('inference') })).toMatchObject({ status: 403, body: { errorCode: 'SLUICE_AUTH_FORBIDDEN' } });
  });

  it('answers a rotated old key 401 SLUICE_AUTH_INVALID_CREDENTIALS and serves the new one', async () => {
    const old = bearer('inference');
    await auth.endpoint.handle(endpointRequest(auth.endpoint, { type: 'inference' }, bearer('api')), emptyEndpointContext());
    expect(await predict(old)).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' } });
    expect(handler.calls.count).toBe(0);
    expect((await predict(bearer('inference'))).status).toBe(200);
  });

  it('answers an expired key 401 SLUICE_AUTH_EXPIRED_CREDENTIALS, and runs nothing', async () => {
    const expired = bearer('inference');
    clock += 24 * 60 * MINUTE;
    try {
      expect(await predict(expired)).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_EXPIRED_CREDENTIALS' } });
      expect(handler.calls.count).toBe(0);
    } finally {
      await auth.endpoint.handle(endpointRequest(auth.endpoint, { type: 'inference' }, bearer('api')), emptyEndpointContext());
    }
  });
});

describe('token-auth by default', () => {
  let t: TestServer;
  beforeAll(async () => {
    // The snapshot where it is by default, in .sluice/ beside the key file: it is written first.
    t = await startTestServer({ demoModels: ['iris'], auth: { management: 'token-auth' }, config: { snapshot: { enabled: true, file: '.sluice/snapshot.json' } } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes .sluice/key_file.json in the config directory with mode 0600', async () => {
    expect(await permissionsOf(join(t.dir, '.sluice', 'key_file.json'))).toBe('600');
  });

  it('keeps the key file in a .sluice folder of mode 0700, though the snapshot written there first made it', async () => {
    expect({ files: (await readdir(join(t.dir, '.sluice'))).sort(), mode: await permissionsOf(join(t.dir, '.sluice')) }).toEqual({
      files: ['key_file.json', 'snapshot.json'],
      mode: '700',
    });
  });

  it('guards the management API with the management key of the key file, and leaves inference open', async () => {
    const content = JSON.parse(await readFile(join(t.dir, '.sluice', 'key_file.json'), 'utf8')) as { management: { key: string } };
    expect((await requestJson(`${t.management}/models`)).status).toBe(401);
    expect((await requestJson(`${t.management}/models`, { headers: { authorization: `Bearer ${content.management.key}` } })).status).toBe(200);
    expect((await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).status).toBe(200);
  });
});

describe('token-auth over a .sluice folder an earlier release made open to others', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      auth: { management: 'token-auth' },
      prepare: async (_store, dir) => {
        await mkdir(join(dir, '.sluice'));
        await chmod(join(dir, '.sluice'), 0o755);
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('makes the folder 0700 before it writes the keys there', async () => {
    expect({ files: await readdir(join(t.dir, '.sluice')), mode: await permissionsOf(join(t.dir, '.sluice')) }).toEqual({
      files: ['key_file.json'],
      mode: '700',
    });
  });
});
