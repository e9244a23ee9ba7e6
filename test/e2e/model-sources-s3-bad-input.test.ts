import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { startCuttingProxy, type CuttingProxy } from '../support/cutting-proxy.js';
import { s3Environment, setEnvironment, startLoopbackS3, type LoopbackS3 } from '../support/s3-store.js';
import { memoryLogger, requestJson, startTestServer, type JsonAnswer, type TestServer } from '../support/test-server.js';

const IRIS = join(packageRoot(), 'model-store', 'iris');
const MLP = join(packageRoot(), 'model-store', 'mlp');
const LIMIT = 100_000;
const SECRET = 'wrong-secret-that-must-never-show-0f3a9c';

async function leftovers(store: string): Promise<string[]> {
  const names = async (dir: string): Promise<string[]> => readdir(join(store, dir)).catch(() => []);
  return [...(await names('.sources')).filter((name) => name.startsWith('.tmp-')), ...(await names('.downloads'))];
}

/** What a test checks after each refusal: the server still serves, and nothing was left half-written. */
async function checkHealthy(t: TestServer): Promise<void> {
  expect(await leftovers(t.config.modelStore)).toEqual([]);
  const answer = await requestJson(`${t.inference}/v2/models/iris/infer`, {
    method: 'POST',
    json: { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: [1, 1, 1, 1] }] },
  });
  expect(answer.status).toBe(200);
}

describe('model sources: S3 bad input', () => {
  let s3: LoopbackS3;
  let proxy: CuttingProxy;
  let t: TestServer;
  let restoreEnv: () => void;
  const register = (url: string): Promise<JsonAnswer> => requestJson(`${t.management}/models?url=${encodeURIComponent(url)}`, { method: 'POST' });
  const sourceDirs = async (): Promise<string[]> => (await readdir(join(t.config.modelStore, '.sources')).catch(() => [])).filter((n) => !n.startsWith('.'));

  beforeAll(async () => {
    s3 = await startLoopbackS3();
    await s3.createBucket('models');
    for (const prefix of ['cut/', 'tampered/', 'fine/', 'throttled/', 'overloaded/']) {
      for (const name of await readdir(IRIS)) await s3.put('models', `${prefix}${name}`, await readFile(join(IRIS, name)));
    }
    await s3.put('models', 'docs/readme.txt', 'no model here');
    await s3.put('models', 'big/model.onnx', await readFile(join(MLP, 'model.onnx')));
    // The same number of bytes, other content: only the checksum can tell.
    const stored = s3.contentFile('models', 'tampered/model.onnx');
    const bytes = await readFile(stored);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    await writeFile(stored, bytes);
    proxy = await startCuttingProxy(
      s3.endpoint,
      (path) => path.startsWith('/models/cut/') && !path.includes('list-type'),
      // Two 503 SlowDown answers before each object of throttled/ passes; overloaded/ never passes.
      (path, before) => (path.startsWith('/models/throttled/') && before < 2) || path.startsWith('/models/overloaded/'),
    );
    restoreEnv = setEnvironment(s3Environment(proxy.url));
    t = await startTestServer({
      demoModels: ['iris'],
      config: { allowedUrls: ['s3://models/.*', 's3://missing-bucket/.*'], download: { maxBytes: LIMIT, timeoutMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await t.close();
    restoreEnv();
    await proxy.close();
    await s3.close();
  });

  it('a bucket that does not exist → 404 naming the bucket', async () => {
    const answer = await register('s3://missing-bucket/iris/');
    expect(answer).toMatchObject({ status: 404, body: { code: 404, errorCode: 'SLUICE_SOURCE_NOT_FOUND' } });
    expect(answer.body).toMatchObject({ message: expect.stringContaining('s3 bucket "missing-bucket" does not exist (NoSuchBucket, HTTP 404)') });
    await checkHealthy(t);
  });

  it('an archive key that does not exist → 404 naming the key', async () => {
    expect(await register('s3://models/archives/none.sluice')).toMatchObject({
      status: 404,
      body: {
        errorCode: 'SLUICE_SOURCE_NOT_FOUND',
        message: 's3 bucket "models" has no object "archives/none.sluice" (s3://models/archives/none.sluice); check the key, and upload the archive first',
      },
    });
    await checkHealthy(t);
  });

  it('a prefix holding nothing → 404', async () => {
    expect(await register('s3://models/nothing-here/')).toMatchObject({
      status: 404,
      body: {
        errorCode: 'SLUICE_SOURCE_NOT_FOUND',
        message: 's3 bucket "models" holds nothing under "nothing-here/" (s3://models/nothing-here/); check the prefix, and upload the model directory there first',
      },
    });
    await checkHealthy(t);
  });

  it('a prefix without a model → 404 listing what it holds, before anything is downloaded', async () => {
    const gets = proxy.requests.length;
    expect(await register('s3://models/docs')).toMatchObject({
      status: 404,
      body: {
        errorCode: 'SLUICE_MANIFEST_NOT_FOUND',
        message:
          's3://models/docs holds neither model.yaml nor model.onnx at the top of the prefix (it holds readme.txt); upload the ONNX model there as model.onnx, or describe it in a model.yaml',
      },
    });
    expect(proxy.requests.slice(gets).filter((r) => r.startsWith('GET /models/docs/readme.txt'))).toEqual([]);
    await checkHealthy(t);
  });

  it('a URL outside allowedUrls → 403, and the store is never asked', async () => {
    const before = proxy.requests.length;
    expect(await register('s3://other-bucket/iris/')).toMatchObject({ status: 403, body: { errorCode: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED' } });
    expect(proxy.requests.length).toBe(before);
    await checkHealthy(t);
  });

  it('a source larger than download.maxBytes → 400 before any object is downloaded', async () => {
    const before = proxy.requests.length;
    const answer = await register('s3://models/big/');
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED' } });
    expect(answer.body).toMatchObject({ message: expect.stringMatching(/^s3:\/\/models\/big\/ holds \d+ bytes, more than the download limit of 100000 bytes/) });
    expect(proxy.requests.slice(before).filter((r) => r.startsWith('GET /models/big/model.onnx'))).toEqual([]);
    await checkHealthy(t);
  });

  it('a download cut off mid-way → 400 after retrying, nothing kept', async () => {
    const before = proxy.requests.length;
    const answer = await register('s3://models/cut/');
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED' } });
    expect(answer.body).toMatchObject({ message: expect.stringContaining('of s3://models/cut/ failed: ') });
    expect(answer.body).toMatchObject({ message: expect.stringContaining('3 attempts; nothing was kept') });
    expect(proxy.requests.slice(before).filter((r) => r.startsWith('GET /models/cut/labels.txt')).length).toBe(3);
    expect((await sourceDirs()).filter((name) => name.startsWith('cut-'))).toEqual([]);
    await checkHealthy(t);
  });

  it('an object whose content does not match its checksum → 400 naming both digests, nothing kept', async () => {
    const answer = await register('s3://models/tampered/');
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MANAGEMENT_DOWNLOAD_FAILED' } });
    expect(answer.body).toMatchObject({ message: expect.stringMatching(/"tampered\/model\.onnx" of s3:\/\/models\/tampered\/ failed: its MD5 [0-9a-f]{32} does not match the checksum the store lists, [0-9a-f]{32}/) });
    expect((await sourceDirs()).filter((name) => name.startsWith('tampered-'))).toEqual([]);
    await checkHealthy(t);
  });

  it('a store throttling with 503 SlowDown is retried with backoff until it answers', async () => {
    const answer = await requestJson(`${t.management}/models?url=${encodeURIComponent('s3://models/throttled/')}&model_name=throttled`, { method: 'POST' });
    expect(answer).toMatchObject({ status: 200 });
    expect(proxy.requests.filter((r) => r === 'GET /models/throttled/model.onnx?x-id=GetObject').length).toBe(3);
  });

  it('a store that keeps answering 503 → 503 SLUICE_SOURCE_UNAVAILABLE once the retries are spent', async () => {
    const before = proxy.requests.length;
    expect(await register('s3://models/overloaded/')).toMatchObject({
      status: 503,
      body: {
        errorCode: 'SLUICE_SOURCE_UNAVAILABLE',
        message:
          'reading the object "overloaded/labels.txt" of s3 bucket "models" failed: the store could not be reached or kept failing (SlowDown, HTTP 503), retries included; try again later',
      },
    });
    // Five attempts at the first object, the SDK's standard strategy with S3_MAX_ATTEMPTS; none at the others.
    expect(proxy.requests.slice(before).filter((r) => r.startsWith('GET /models/overloaded/')).length).toBe(5);
    await checkHealthy(t);
  });

  it('still registers a good source afterwards', async () => {
    const answer = await requestJson(`${t.management}/models?url=${encodeURIComponent('s3://models/fine/')}&model_name=fine`, { method: 'POST' });
    expect(answer).toMatchObject({ status: 200 });
  });

  describe('with credentials the store does not know', () => {
    let wrong: TestServer;
    const lines: string[] = [];
    beforeAll(async () => {
      wrong = await startTestServer({ demoModels: ['iris'], config: { allowedUrls: ['s3://models/.*'] }, logger: memoryLogger(lines) });
    });
    afterAll(async () => {
      await wrong.close();
    });

    it('→ 403 naming the bucket and the store\'s error code, never the secret', async () => {
      // The SDK reads the credentials when this server first opens the store, which is now.
      const restore = setEnvironment(s3Environment(s3.endpoint, 'AKIAWRONGKEY00000000', SECRET));
      let answer: JsonAnswer;
      try {
        answer = await requestJson(`${wrong.management}/models?url=${encodeURIComponent('s3://models/fine/')}`, { method: 'POST' });
      } finally {
        restore();
      }
      expect(answer).toMatchObject({
        status: 403,
        body: {
          errorCode: 'SLUICE_SOURCE_ACCESS_DENIED',
          message: expect.stringContaining('access to the prefix "fine/" of s3 bucket "models" was refused (InvalidAccessKeyId, HTTP 403)'),
        },
      });
      expect(JSON.stringify(answer.body)).not.toContain(SECRET);
      expect(lines.join('\n')).not.toContain(SECRET);
      expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual(
        expect.arrayContaining([expect.objectContaining({ msg: 'model source not fetched', source: 's3://models/fine/', code: 'SLUICE_SOURCE_ACCESS_DENIED' })]),
      );
      const snapshot = await readFile(join(wrong.dir, 'snapshot.json'), 'utf8');
      expect(snapshot).not.toContain(SECRET);
      await checkHealthy(wrong);
    });
  });
});
