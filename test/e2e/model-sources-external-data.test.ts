import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packModelArchive } from '../../src/model-store/index.js';
import { EXTERNAL_DATA_FILE, writeExternalDataModel } from '../support/external-data-model.js';
import { setEnvironment, startLoopbackS3, type LoopbackS3 } from '../support/s3-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** A model directory with a model.yaml naming it `name`, its weights in a file of their own. */
async function writeScaledModel(dir: string, name: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeExternalDataModel(dir);
  await writeFile(join(dir, 'model.yaml'), `name: ${name}\nversion: "1"\nruntime: onnx\nmodel: model.onnx\nhandler: passthrough\n`);
}

describe('models whose weights are ONNX external data', () => {
  let s3: LoopbackS3;
  let t: TestServer;
  let restoreEnv: () => void;
  let work: { dir: string; cleanup: () => Promise<void> };

  beforeAll(async () => {
    s3 = await startLoopbackS3();
    restoreEnv = setEnvironment(s3.env);
    await s3.createBucket('models');
    work = await makeTempDir('sluice-external-');
    await writeExternalDataModel(work.dir);
    for (const name of ['model.onnx', EXTERNAL_DATA_FILE]) await s3.put('models', `bare-scaled/${name}`, await readFile(join(work.dir, name)));
    await writeScaledModel(join(work.dir, 's3-archived'), 's3-archived');
    await packModelArchive(join(work.dir, 's3-archived'), join(work.dir, 's3-archived.sluice'));
    await s3.put('models', 'archives/s3-archived.sluice', await readFile(join(work.dir, 's3-archived.sluice')));
    t = await startTestServer({
      demoModels: [],
      config: { allowedUrls: ['s3://models/.*'] },
      prepare: async (store) => {
        await writeScaledModel(join(store, 'scaled'), 'scaled');
        await writeScaledModel(join(work.dir, 'archived'), 'archived');
        await packModelArchive(join(work.dir, 'archived'), join(store, 'archived.sluice'));
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await work.cleanup();
    await s3.close();
    restoreEnv();
  });

  const infer = (name: string): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/v2/models/${name}/infer`, { method: 'POST', json: { inputs: [{ name: 'x', shape: [1, 3], datatype: 'FP32', data: [1, 1, 1] }] } });
  const scaledBy = { status: 200, body: { outputs: [{ name: 'y', shape: [1, 3], data: [2, 3, 4] }] } };

  it('serves one from a model-store directory', async () => {
    expect(await infer('scaled')).toMatchObject(scaledBy);
  });

  it('serves one from a model-store archive, the weight file packed with it', async () => {
    expect(await infer('archived')).toMatchObject(scaledBy);
  });

  it('serves one from an S3 prefix holding model.onnx and its weight file', async () => {
    expect(await requestJson(`${t.management}/models?url=${encodeURIComponent('s3://models/bare-scaled/')}`, { method: 'POST' })).toMatchObject({ status: 200 });
    expect(await infer('bare-scaled')).toMatchObject(scaledBy);
    const kept = (await readdir(join(t.config.modelStore, '.sources'))).find((name) => name.startsWith('bare-scaled-'));
    expect((await readdir(join(t.config.modelStore, '.sources', kept ?? ''))).sort()).toEqual(['model.onnx', EXTERNAL_DATA_FILE]);
  });

  it('serves one from a .sluice archive in S3', async () => {
    expect(await requestJson(`${t.management}/models?url=${encodeURIComponent('s3://models/archives/s3-archived.sluice')}`, { method: 'POST' })).toMatchObject({ status: 200 });
    expect(await infer('s3-archived')).toMatchObject(scaledBy);
  });
});
