import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KeyFileContent } from '../../plugins/token-auth/index.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** The built-in token-auth plugin as `npm start` runs it: loaded, chosen by `auth`, its key file on disk. */
describe('token-auth key rotation over HTTP', () => {
  let t: TestServer;
  const keyFile = (): Promise<KeyFileContent> => readFile(join(t.dir, '.sluice', 'key_file.json'), 'utf8').then((text) => JSON.parse(text) as KeyFileContent);
  const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], auth: { management: 'token-auth' } });
  });
  afterAll(() => t.close());

  it('GET /token?type=management with the API key answers a new management key, and the old one stops working', async () => {
    const before = await keyFile();
    expect((await requestJson(`${t.management}/models`, { headers: bearer(before.management.key) })).status).toBe(200);
    const rotated = await requestJson(`${t.management}/token?type=management`, { headers: bearer(before.api.key) });
    expect(rotated).toMatchObject({ status: 200, body: { type: 'management', key: expect.any(String) as unknown } });
    const fresh = (rotated.body as { key: string }).key;
    expect(fresh).not.toBe(before.management.key);
    expect((await keyFile()).management.key).toBe(fresh);
    expect(await requestJson(`${t.management}/models`, { headers: bearer(before.management.key) })).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_INVALID_CREDENTIALS' } });
    expect((await requestJson(`${t.management}/models`, { headers: bearer(fresh) })).status).toBe(200);
  });

  it('GET /token with the management key instead of the API key is 403', async () => {
    const { management } = await keyFile();
    expect(await requestJson(`${t.management}/token?type=inference`, { headers: bearer(management.key) })).toMatchObject({ status: 403, body: { errorCode: 'SLUICE_AUTH_FORBIDDEN' } });
  });

  it('HEAD /token with the API key is 405 with Allow: GET, and rotates nothing', async () => {
    const before = await keyFile();
    const answer = await fetch(`${t.management}/token?type=management`, { method: 'HEAD', headers: bearer(before.api.key) });
    expect({ status: answer.status, allow: answer.headers.get('allow') }).toEqual({ status: 405, allow: 'GET' });
    expect((await keyFile()).management.key).toBe(before.management.key);
    expect((await requestJson(`${t.management}/models`, { headers: bearer(before.management.key) })).status).toBe(200);
  });

  it.each([
    ['type given twice', 'type=inference&type=bogus', 'query parameter `type` is given more than once'],
    ['a parameter it does not take', 'type=inference&expires=never', 'unknown query parameter `expires`; allowed here: type'],
  ])('GET /token with %s is 400 SLUICE_MANAGEMENT_INVALID_ARGUMENT, as on every management route, and rotates nothing', async (_case, query, message) => {
    const before = await keyFile();
    expect(await requestJson(`${t.management}/token?${query}`, { headers: bearer(before.api.key) })).toMatchObject({
      status: 400,
      body: { code: 400, errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message },
    });
    expect(await keyFile()).toEqual(before);
  });

  it('GET /token without a key is 401', async () => {
    expect(await requestJson(`${t.management}/token?type=inference`)).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS' } });
  });
});
