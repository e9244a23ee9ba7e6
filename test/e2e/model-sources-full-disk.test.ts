import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { describeWherePossible } from '../support/describe-where-possible.js';
import { s3Environment, setEnvironment, startLoopbackS3, type LoopbackS3 } from '../support/s3-store.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { mountTmpfs, tmpfsUnavailable, unmountTmpfs } from '../support/tmpfs-mount.js';

const SUITE = 'model sources: a full disk mid-download';

/** The tmpfs holding the model store's `.sources/`: smaller than the object registered. */
const TMPFS_SIZE = '2m';
const OBJECT_BYTES = 3 * 1024 * 1024;

describeWherePossible(SUITE, tmpfsUnavailable(), () => {
  let s3: LoopbackS3;
  let t: TestServer;
  let restoreEnv: () => void;
  let sources = '';
  let mounted = false;

  beforeAll(async () => {
    s3 = await startLoopbackS3();
    await s3.createBucket('models');
    // Random bytes: the download fails on the disk long before anything would read them as a model.
    await s3.put('models', 'large/model.onnx', randomBytes(OBJECT_BYTES));
    restoreEnv = setEnvironment(s3Environment(s3.endpoint));
    t = await startTestServer({
      demoModels: ['iris'],
      config: { allowedUrls: ['s3://models/.*'] },
      prepare: async (store) => {
        sources = join(store, '.sources');
        await mkdir(sources);
        await mountTmpfs(sources, TMPFS_SIZE);
        mounted = true;
      },
    });
  });
  afterAll(async () => {
    // Unmounted before the server's temp dir is removed, which a mount point would keep busy.
    if (mounted) await unmountTmpfs(sources);
    await t.close();
    restoreEnv();
    await s3.close();
  });

  it('a model larger than the free disk → 400 saying the disk is full, nothing left in .sources/, the server still serving', async () => {
    const answer = await requestJson(`${t.management}/models?url=${encodeURIComponent('s3://models/large/')}`, { method: 'POST' });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED' } });
    expect(answer.body).toMatchObject({ message: expect.stringContaining('the disk holding the model store is full; free space or give the model store a larger disk') });
    expect(await readdir(sources)).toEqual([]);
    const inferred = await requestJson(`${t.inference}/v2/models/iris/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: [1, 1, 1, 1] }] },
    });
    expect(inferred.status).toBe(200);
  });
});
