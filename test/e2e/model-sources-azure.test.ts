import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { packModelArchive } from '../../src/model-store/index.js';
import { AZURITE_ACCOUNT, startLoopbackAzure, type LoopbackAzure } from '../support/azure-store.js';
import { EXTERNAL_DATA_FILE, writeExternalDataModel } from '../support/external-data-model.js';
import { setEnvironment } from '../support/s3-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { memoryLogger, requestJson, startTestServer, type JsonAnswer, type TestServer } from '../support/test-server.js';

const IRIS = join(packageRoot(), 'model-store', 'iris');
const WRONG_KEY = Buffer.from('a wrong key that must never show').toString('base64');
const url = (prefix: string): string => `azure://${AZURITE_ACCOUNT}/models/${prefix}`;

describe('model sources: Azure Blob', () => {
  let azure: LoopbackAzure;
  let t: TestServer;
  let work: { dir: string; cleanup: () => Promise<void> };
  let restoreEnv: () => void;
  const lines: string[] = [];
  const register = (server: TestServer, source: string): Promise<JsonAnswer> =>
    requestJson(`${server.management}/models?url=${encodeURIComponent(source)}`, { method: 'POST' });
  const infer = (name: string, input: { name: string; shape: number[]; data: number[] }): Promise<JsonAnswer> =>
    requestJson(`${t.inference}/v2/models/${name}/infer`, { method: 'POST', json: { inputs: [{ ...input, datatype: 'FP32' }] } });

  beforeAll(async () => {
    azure = await startLoopbackAzure();
    await azure.createContainer('models');
    for (const name of await readdir(IRIS)) await azure.put('models', `team/iris/${name}`, await readFile(join(IRIS, name)));
    work = await makeTempDir('sluice-azure-');
    await writeExternalDataModel(work.dir);
    for (const name of ['model.onnx', EXTERNAL_DATA_FILE]) await azure.put('models', `scaled/${name}`, await readFile(join(work.dir, name)));
    await packModelArchive(join(packageRoot(), 'model-store', 'mlp'), join(work.dir, 'mlp.sluice'));
    await azure.put('models', 'archives/mlp.sluice', await readFile(join(work.dir, 'mlp.sluice')));
    restoreEnv = setEnvironment({ AZURE_STORAGE_CONNECTION_STRING: azure.connectionString() });
    t = await startTestServer({ demoModels: [], config: { allowedUrls: [`azure://${AZURITE_ACCOUNT}/models/.*`, `azure://${AZURITE_ACCOUNT}/absent/.*`] }, logger: memoryLogger(lines) });
  });
  afterAll(async () => {
    await t.close();
    restoreEnv();
    await work.cleanup();
    await azure.close();
  });

  it('registers the model directory under a container prefix and serves it', async () => {
    expect(await register(t, url('team/iris/'))).toMatchObject({ status: 200 });
    expect(await infer('iris', { name: 'input', shape: [1, 4], data: [1, 1, 1, 1] })).toMatchObject({ status: 200 });
  });

  it('registers model.onnx with its external weight file and no model.yaml', async () => {
    expect(await register(t, url('scaled'))).toMatchObject({ status: 200 });
    expect(await infer('scaled', { name: 'x', shape: [1, 3], data: [1, 1, 1] })).toMatchObject({ status: 200, body: { outputs: [{ data: [2, 3, 4] }] } });
  });

  it('registers a .sluice archive blob', async () => {
    expect(await register(t, url('archives/mlp.sluice'))).toMatchObject({ status: 200 });
  });

  it('does not download a source again at the same version', async () => {
    expect(await requestJson(`${t.management}/models/iris/1.0`, { method: 'DELETE' })).toMatchObject({ status: 200 });
    const before = lines.length;
    expect(await register(t, url('team/iris/'))).toMatchObject({ status: 200 });
    expect(lines.slice(before).filter((line) => line.includes('"model source download started"'))).toEqual([]);
  });

  it('a blob whose content does not match its Content-MD5 → 400 naming both digests, nothing kept, the server still serving', async () => {
    for (const name of await readdir(IRIS)) await azure.put('models', `tampered/${name}`, await readFile(join(IRIS, name)));
    await azure.setContentMd5('models', 'tampered/model.onnx', createHash('md5').update('other bytes than the blob holds').digest());
    const answer = await register(t, url('tampered/'));
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED' } });
    expect(answer.body).toMatchObject({
      message: expect.stringMatching(/"tampered\/model\.onnx" of azure:\/\/devstoreaccount1\/models\/tampered\/ failed: its MD5 [0-9a-f]{32} does not match the checksum the store lists, [0-9a-f]{32}/),
    });
    const sources = await readdir(join(t.config.modelStore, '.sources'));
    expect(sources.filter((name) => name.startsWith('tampered-') || name.startsWith('.tmp-'))).toEqual([]);
    expect(await infer('iris', { name: 'input', shape: [1, 4], data: [1, 1, 1, 1] })).toMatchObject({ status: 200 });
  });

  it('a container that does not exist → 404 naming it', async () => {
    expect(await register(t, `azure://${AZURITE_ACCOUNT}/absent/iris/`)).toMatchObject({
      status: 404,
      body: { errorCode: 'SLUICE_SOURCE_NOT_FOUND', message: expect.stringContaining('azure container "absent" of account "devstoreaccount1" does not exist') },
    });
  });

  it('a container outside allowedUrls → 403', async () => {
    expect(await register(t, `azure://${AZURITE_ACCOUNT}/other/iris/`)).toMatchObject({ status: 403, body: { errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED' } });
  });

  it('a prefix holding nothing → 404', async () => {
    expect(await register(t, url('nothing/'))).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_SOURCE_NOT_FOUND' } });
  });

  describe('with a key the account does not have', () => {
    let wrong: TestServer;
    beforeAll(async () => {
      wrong = await startTestServer({ demoModels: [], config: { allowedUrls: [`azure://${AZURITE_ACCOUNT}/.*`] } });
    });
    afterAll(async () => {
      await wrong.close();
    });

    it('→ 403 naming the container, never the key', async () => {
      const restore = setEnvironment({ AZURE_STORAGE_CONNECTION_STRING: azure.connectionString(WRONG_KEY) });
      let answer: JsonAnswer;
      try {
        answer = await register(wrong, url('team/iris/'));
      } finally {
        restore();
      }
      expect(answer).toMatchObject({
        status: 403,
        body: { errorCode: 'SLUICE_SOURCE_ACCESS_DENIED', message: expect.stringContaining('access to the prefix "team/iris/" of azure container "models" of account "devstoreaccount1" was refused') },
      });
      expect(JSON.stringify(answer.body)).not.toContain(WRONG_KEY);
    });
  });
});
