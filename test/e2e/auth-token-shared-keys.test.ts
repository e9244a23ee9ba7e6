import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../src/sdk/errors/index.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const INFERENCE_KEY = 'inference-key-of-the-fleet-0123456789';
const MANAGEMENT_KEY = 'management-key-of-the-fleet-0123456789';
const NEXT_MANAGEMENT_KEY = 'next-management-key-of-the-fleet-0123456789';
const SETOSA = [5.1, 3.5, 1.4, 0.2];

/**
 * Two servers (two replicas behind one Service) with token-auth taking its keys from one keys file, as a
 * mounted Secret: a key works on either, and a new version of the file rotates both without a restart.
 */
describe('token-auth with keys shared by a fleet', () => {
  let secrets: { dir: string; cleanup: () => Promise<void> };
  let keysFile = '';
  let replicas: TestServer[] = [];
  const withKey = (key: string): { headers: Record<string, string> } => ({ headers: { authorization: `Bearer ${key}` } });

  /** Writes the keys beside the file and renames them over it, as a Secret volume swaps its files. */
  async function writeKeys(content: unknown): Promise<void> {
    await writeFile(`${keysFile}.next`, JSON.stringify(content));
    await rename(`${keysFile}.next`, keysFile);
  }

  beforeAll(async () => {
    secrets = await makeTempDir('sluice-secret-');
    keysFile = join(secrets.dir, 'keys.json');
    await writeKeys({ inference: INFERENCE_KEY, management: MANAGEMENT_KEY });
    const replica = (): Promise<TestServer> =>
      startTestServer({
        demoModels: ['iris'],
        auth: { inference: 'token-auth', management: 'token-auth', metrics: 'token-auth' },
        config: { plugins: [{ name: 'token-auth', config: { keysFile } }] },
      });
    replicas = [await replica(), await replica()];
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await secrets.cleanup();
  });

  it('takes the same keys on every replica, each key for its own APIs', async () => {
    for (const t of replicas) {
      expect((await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA, ...withKey(INFERENCE_KEY) })).status).toBe(200);
      expect((await requestJson(`${t.management}/models`, withKey(MANAGEMENT_KEY))).status).toBe(200);
      expect((await fetch(`${t.metrics}/metrics`, withKey(MANAGEMENT_KEY))).status).toBe(200);
      expect(await requestJson(`${t.management}/models`, withKey(INFERENCE_KEY))).toMatchObject({ status: 403, body: { errorCode: 'SLUICE_AUTH_FORBIDDEN' } });
      expect(await requestJson(`${t.management}/models`)).toMatchObject({ status: 401, body: { errorCode: 'SLUICE_AUTH_MISSING_CREDENTIALS' } });
    }
  });

  it('writes no key file, and GET /token says the keys are rotated in the Secret', async () => {
    const [t] = replicas;
    if (t === undefined) throw new Error('no replica');
    const answer = await requestJson(`${t.management}/token?type=management`, withKey(MANAGEMENT_KEY));
    expect(answer).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_ROUTE_NOT_FOUND' } });
    expect(JSON.stringify(answer.body)).toContain('update the keys file');
  });

  it('rotates the keys of every replica when the file changes, without a restart', async () => {
    await writeKeys({ inference: INFERENCE_KEY, management: [MANAGEMENT_KEY, NEXT_MANAGEMENT_KEY] });
    for (const t of replicas) {
      // A token matching no key has the file looked at, at most once a second: asked again until then.
      let status = 0;
      while (status !== 200) {
        status = (await requestJson(`${t.management}/models`, withKey(NEXT_MANAGEMENT_KEY))).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await requestJson(`${t.management}/models`, withKey(MANAGEMENT_KEY))).status).toBe(200);
    }
  });
});

describe('token-auth with a keys file it cannot use', () => {
  it.each<[string, ((file: string) => Promise<void>) | undefined, string]>([
    ['missing', undefined, 'ENOENT'],
    ['without a management key', (file) => writeFile(file, JSON.stringify({ inference: INFERENCE_KEY })), '"management" is missing'],
    ['with a short key', (file) => writeFile(file, JSON.stringify({ inference: 'short', management: MANAGEMENT_KEY })), '"inference" is 5 characters long'],
  ])('refuses to start when the file is %s, naming the file and the key', async (_case, write, reason) => {
    const temp = await makeTempDir('sluice-e2e-');
    const keysFile = join(temp.dir, 'keys.json');
    await write?.(keysFile);
    try {
      const start = startTestServer({
        dir: temp.dir,
        auth: { management: 'token-auth' },
        config: { plugins: [{ name: 'token-auth', config: { keysFile } }] },
      });
      const error = await start.then(
        async (t) => {
          await t.close();
          throw new Error('the server started');
        },
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(SluiceError);
      expect((error as SluiceError).code).toBe('SLUICE_PLUGIN_LOAD_FAILED');
      expect((error as SluiceError).message).toContain(`token-auth: cannot use the keys file ${keysFile}: `);
      expect((error as SluiceError).message).toContain(reason);
    } finally {
      await temp.cleanup();
    }
  });
});
