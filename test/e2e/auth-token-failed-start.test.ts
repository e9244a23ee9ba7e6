import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { KeyFileContent } from '../../plugins/token-auth/index.js';
import { expectStartOnTakenPortToFail } from '../support/taken-port-start.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A second server sharing the first one's key file whose start fails to listen: the key file must stay the
 * running server's. Its clash is on the gRPC management port, the last port a start opens.
 */
describe('token-auth key file and a start that fails to listen', () => {
  let a: TestServer;
  let keyFile = '';

  beforeAll(async () => {
    a = await startTestServer({ demoModels: [], auth: { management: 'token-auth' } });
    keyFile = join(a.dir, '.sluice', 'key_file.json');
  });
  afterAll(() => a.close());

  it('leaves the running server key file untouched, and its management key still works', async () => {
    const before = await readFile(keyFile, 'utf8');
    await expectStartOnTakenPortToFail(a, {
      auth: { management: 'token-auth' },
      config: { plugins: [{ name: 'token-auth', config: { keyFile } }] },
    });
    expect(await readFile(keyFile, 'utf8')).toBe(before);
    const { management } = JSON.parse(before) as KeyFileContent;
    expect((await requestJson(`${a.management}/models`, { headers: { authorization: `Bearer ${management.key}` } })).status).toBe(200);
  });
});
