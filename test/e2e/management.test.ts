import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packModelArchive } from '../../src/model-store/index.js';
import { Gate } from '../support/gate.js';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

describe('management API', () => {
  let t: TestServer;
  let files: LoopbackFileServer;
  let filesUrl = '';
  let downloads = 0;
  /** Holds the answer to `/models/held.sluice` while a test wants a download in flight. */
  const heldDownload = new Gate();
  const manage = (path: string, method = 'GET'): ReturnType<typeof requestJson> => requestJson(`${t.management}${path}`, { method });
  /** Registers `POST /models?url=<query>`, reads the batching `name` got, then unregisters it. */
  const registeredBatching = async (query: string, name: string): Promise<{ status: number; batching: unknown }> => {
    const { status } = await manage(`/models?url=${query}`, 'POST');
    const [described] = (await manage(`/models/${name}`)).body as { batching?: unknown }[];
    await manage(`/models/${name}`, 'DELETE');
    return { status, batching: described?.batching };
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris', 'mlp'],
      config: { allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/models/.*$'] },
      prepare: async (store, dir) => {
        for (const version of ['1.0', '2.0']) {
          await cp(join(store, 'iris'), join(store, 'multi', version), { recursive: true });
          const manifest = join(store, 'multi', version, 'model.yaml');
          const text = (await readFile(manifest, 'utf8')).replace('name: iris', 'name: multi').replace('version: "1.0"', `version: "${version}"`);
          await writeFile(manifest, text);
        }
        await cp(join(store, 'mlp'), join(dir, 'low-default'), { recursive: true });
        const lowDefault = join(dir, 'low-default', 'model.yaml');
        const declared = (await readFile(lowDefault, 'utf8'))
          .replace('name: mlp', 'name: low-default')
          .replace('batching: { maxBatchSize: 64, maxBatchDelayMs: 1 }', 'batching: { maxBatchSize: 64, maxBatchDelayMs: 1, priorityLevels: 3, defaultPriority: 3 }');
        await writeFile(lowDefault, declared);
        await packModelArchive(join(dir, 'low-default'), join(dir, 'low-default.sluice'));
        await packModelArchive(join(store, 'iris'), join(store, 'iris-archive.sluice'));
        await packModelArchive(join(store, 'mlp'), join(dir, 'served-mlp.sluice'));
      },
    });
    const archive = await readFile(join(t.dir, 'served-mlp.sluice'));
    const lowDefaultArchive = await readFile(join(t.dir, 'low-default.sluice'));
    files = await startLoopbackFileServer((req, res) => {
      downloads++;
      if (req.url === '/models/mlp.sluice') res.end(archive);
      else if (req.url === '/models/low-default.sluice') res.end(lowDefaultArchive);
      else if (req.url === '/models/not-an-archive.sluice') res.end('just some text');
      else if (req.url === '/models/held.sluice') void heldDownload.pass().then(() => res.writeHead(404).end());
      else res.writeHead(404).end();
    });
    filesUrl = files.url;
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('lists the models loaded at start-up', async () => {
    expect(await manage('/models')).toMatchObject({
      status: 200,
      body: {
        models: [
          { modelName: 'iris', modelUrl: 'iris' },
          { modelName: 'mlp', modelUrl: 'mlp' },
          { modelName: 'multi', modelUrl: 'multi' },
        ],
      },
    });
  });

  it('pages the list with limit and next_page_token', async () => {
    expect((await manage('/models?limit=1')).body).toEqual({ models: [{ modelName: 'iris', modelUrl: 'iris' }], nextPageToken: '1' });
    expect((await manage('/models?limit=1&next_page_token=1')).body).toEqual({ models: [{ modelName: 'mlp', modelUrl: 'mlp' }], nextPageToken: '2' });
    expect((await manage('/models?limit=5&next_page_token=2')).body).toEqual({ models: [{ modelName: 'multi', modelUrl: 'multi' }] });
  });

  it('describes a model: versions, workers and their state, batch settings, queue', async () => {
    const { status, body } = await manage('/models/mlp');
    expect(status).toBe(200);
    expect(body).toMatchObject([
      {
        modelName: 'mlp',
        modelVersion: '1.0',
        isDefault: true,
        status: 'READY',
        minWorkers: 1,
        maxWorkers: 2,
        batchSize: 64,
        maxBatchDelay: 1,
        workers: [{ status: 'READY' }],
        jobQueueStatus: { remainingCapacity: 100, pendingRequests: 0 },
      },
    ]);
  });

  it('registers a .sluice archive from the store under another name with settings', async () => {
    const registered = await manage('/models?url=iris-archive.sluice&model_name=iris-copy&initial_workers=2&batch_size=4&max_batch_delay=5&response_timeout=30', 'POST');
    expect(registered).toMatchObject({ status: 200, body: { status: 'Model "iris-copy" Version: 1.0 registered with 2 initial workers' } });
    expect((await manage('/models/iris-copy')).body).toMatchObject([
      { modelName: 'iris-copy', modelUrl: 'iris-archive.sluice', minWorkers: 2, batchSize: 4, maxBatchDelay: 5, responseTimeout: 30, workers: [{}, {}] },
    ]);
    const predicted = await requestJson(`${t.inference}/predictions/iris-copy`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] });
    expect(predicted).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });

  it('refuses to register the same version twice with 409', async () => {
    expect(await manage('/models?url=iris', 'POST')).toMatchObject({
      status: 409,
      body: { errorCode: 'SLUICE_MODEL_ALREADY_REGISTERED', message: 'model `iris` version `1.0` is already registered; unregister it first or register another version' },
    });
  });

  it('refuses with 400 and registers nothing when two version directories give the same version', async () => {
    const twice = join(t.config.modelStore, 'twice');
    for (const copy of ['a', 'b']) {
      await cp(join(t.config.modelStore, 'iris'), join(twice, copy), { recursive: true });
      const manifest = join(twice, copy, 'model.yaml');
      await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('name: iris', 'name: twice'));
    }
    expect(await manage('/models?url=twice', 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANIFEST_INVALID',
        message: 'twice/b/model.yaml: `version` "1.0" of model `twice` is also the version in twice/a/model.yaml; give each version directory a version of its own',
      },
    });
    expect(await manage('/models/twice')).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
  });

  it('registers from an allowed URL', async () => {
    const url = encodeURIComponent(`${filesUrl}/models/mlp.sluice`);
    expect(await manage(`/models?url=${url}&model_name=mlp-remote`, 'POST')).toMatchObject({ status: 200 });
    expect((await manage('/models/mlp-remote')).body).toMatchObject([{ modelName: 'mlp-remote', modelUrl: `${filesUrl}/models/mlp.sluice` }]);
  });

  it('names the URL, not a file of the server, when a downloaded archive is bad', async () => {
    const url = `${filesUrl}/models/not-an-archive.sluice`;
    expect(await manage(`/models?url=${encodeURIComponent(url)}&model_name=not-an-archive`, 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_ARCHIVE_INVALID',
        message: `${url}: is not gzip-compressed; a .sluice archive is a gzip-compressed tar file made by Sluice's archive packer`,
      },
    });
  });

  it('names a bad archive of the model store by its name in the store, not by where the server keeps it', async () => {
    const whole = await readFile(join(t.config.modelStore, 'iris-archive.sluice'));
    await writeFile(join(t.config.modelStore, 'cut-short.sluice'), whole.subarray(0, Math.floor(whole.length / 2)));
    const answer = await manage('/models?url=cut-short.sluice', 'POST');
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_ARCHIVE_INVALID', message: expect.stringMatching(/^cut-short\.sluice: is truncated /) as unknown } });
    expect(JSON.stringify(answer.body)).not.toContain(t.dir);
  });

  it('names the model file of an archive that fails to load by its place in the model store', async () => {
    const packed = join(t.dir, 'broken');
    await cp(join(t.config.modelStore, 'iris'), packed, { recursive: true });
    await writeFile(join(packed, 'model.onnx'), 'not an ONNX model');
    const manifest = join(packed, 'model.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('name: iris', 'name: broken'));
    await packModelArchive(packed, join(t.config.modelStore, 'broken.sluice'));
    const answer = await manage('/models?url=broken.sluice', 'POST');
    expect(answer).toMatchObject({
      status: 500,
      body: { errorCode: 'SLUICE_MODEL_LOAD_FAILED', message: expect.stringMatching(/^cannot load ONNX model \.extracted\/broken-1\.0-[0-9a-f]{12}\/model\.onnx: /) as unknown },
    });
    expect(JSON.stringify(answer.body)).not.toContain(t.dir);
  });

  it('answers synchronous=false with 202 and loads in the background', async () => {
    expect(await manage('/models?url=iris&model_name=iris-later&synchronous=false', 'POST')).toMatchObject({ status: 202 });
    let described = await manage('/models/iris-later');
    for (let i = 0; i < 100 && described.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      described = await manage('/models/iris-later');
    }
    expect(described).toMatchObject({ status: 200, body: [{ modelName: 'iris-later', status: 'READY' }] });
  });

  it('scales workers up and down', async () => {
    expect(await manage('/models/mlp?min_worker=3&max_worker=4&synchronous=true', 'PUT')).toMatchObject({ status: 200 });
    expect((await manage('/models/mlp')).body).toMatchObject([{ minWorkers: 3, maxWorkers: 4, workers: [{}, {}, {}] }]);
    expect(await manage('/models/mlp/1.0?min_worker=1&synchronous=true', 'PUT')).toMatchObject({ status: 200 });
    expect((await manage('/models/mlp')).body).toMatchObject([{ minWorkers: 1, maxWorkers: 4, workers: [{}] }]);
  });

  it('scales a model while a registration is still downloading', async () => {
    heldDownload.hold();
    try {
      const url = encodeURIComponent(`${files.url}/models/held.sluice`);
      expect(await manage(`/models?url=${url}&model_name=held&synchronous=false`, 'POST')).toMatchObject({ status: 202 });
      await heldDownload.untilArrived(1);
      const scaled = manage('/models/mlp?min_worker=2&synchronous=true', 'PUT');
      const blocked = new Promise<'still waiting'>((resolve) => {
        setTimeout(() => {
          resolve('still waiting');
        }, 5000).unref();
      });
      expect(await Promise.race([scaled, blocked])).toMatchObject({ status: 200, body: { status: 'Model "mlp" version 1.0 now has min_worker=2, max_worker=4' } });
    } finally {
      heldDownload.release();
    }
  });

  it('refuses max_worker below min_worker with 400', async () => {
    expect(await manage('/models/mlp?min_worker=3&max_worker=2&synchronous=true', 'PUT')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: 'max_worker (2) must be at least min_worker (3)' },
    });
  });

  it('refuses max_worker 0 with 400 and keeps the bounds, so the snapshot stays one a restart can restore', async () => {
    const before = await readFile(t.config.snapshot.file, 'utf8');
    const [{ minWorkers, maxWorkers }] = (await manage('/models/mlp')).body as [{ minWorkers: number; maxWorkers: number }];
    expect(await manage('/models/mlp?max_worker=0&synchronous=true', 'PUT')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: 'query parameter `max_worker` must be an integer between 1 and 256, got "0"' },
    });
    expect((await manage('/models/mlp')).body).toMatchObject([{ minWorkers, maxWorkers }]);
    expect(await readFile(t.config.snapshot.file, 'utf8')).toBe(before);
  });

  it('keeps several versions side by side with the highest as default, and describes all', async () => {
    expect((await manage('/models/multi')).body).toMatchObject([{ modelVersion: '2.0', isDefault: true }]);
    expect((await manage('/models/multi/all')).body).toMatchObject([
      { modelVersion: '1.0', isDefault: false },
      { modelVersion: '2.0', isDefault: true },
    ]);
    expect((await manage('/models/multi/1.0')).body).toMatchObject([{ modelVersion: '1.0' }]);
  });

  it('makes the highest version the default when one registration brings in several, as start-up does', async () => {
    expect(await manage('/models?url=multi&model_name=multi-late', 'POST')).toMatchObject({ status: 200 });
    expect((await manage('/models/multi-late/all')).body).toMatchObject([
      { modelVersion: '1.0', isDefault: false },
      { modelVersion: '2.0', isDefault: true },
    ]);
  });

  it('sets the default version, which unversioned requests then use', async () => {
    expect(await manage('/models/multi/1.0/set-default', 'PUT')).toMatchObject({
      status: 200,
      body: { status: 'Default version successfully updated for model "multi" to "1.0"' },
    });
    expect(await requestJson(`${t.inference}/v2/models/multi/infer`, { method: 'POST', json: { inputs: [{ name: 'input', shape: [1, 4], datatype: 'FP32', data: [1, 1, 1, 1] }] } })).toMatchObject({
      body: { model_version: '1.0' },
    });
    expect(await manage('/models/multi/7.0/set-default', 'PUT')).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND' } });
  });

  it('refuses to unregister the default version while other versions exist, and unregisters the others', async () => {
    expect(await manage('/models/multi/1.0', 'DELETE')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_MODEL_DEFAULT_VERSION_IN_USE' } });
    expect(await manage('/models/multi/2.0', 'DELETE')).toMatchObject({ status: 200, body: { status: 'Model "multi" version 2.0 unregistered' } });
    expect((await manage('/models/multi/all')).body).toMatchObject([{ modelVersion: '1.0' }]);
  });

  it('unregisters a model, after which it answers 404', async () => {
    expect(await manage('/models/iris-copy', 'DELETE')).toMatchObject({ status: 200, body: { status: 'Model "iris-copy" unregistered (versions 1.0)' } });
    expect(await manage('/models/iris-copy')).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
    expect(await requestJson(`${t.inference}/predictions/iris-copy`, { method: 'POST', json: [1, 2, 3, 4] })).toMatchObject({ status: 404 });
  });

  it('unregisters one version', async () => {
    expect(await manage('/models/iris-later/1.0', 'DELETE')).toMatchObject({ status: 200, body: { status: 'Model "iris-later" version 1.0 unregistered' } });
  });

  it('requires url to register', async () => {
    expect(await manage('/models', 'POST')).toMatchObject({ status: 400, body: { message: 'query parameter `url` is required' } });
  });

  it('refuses unknown query parameters, naming the allowed ones', async () => {
    expect(await manage('/models?url=iris&worker=2', 'POST')).toMatchObject({
      status: 400,
      body: { message: 'unknown query parameter `worker`; allowed here: url, model_name, batch_size, max_batch_delay, initial_workers, synchronous, response_timeout, preferred_batch_sizes, priority_levels, default_priority, queue_policy, preserve_ordering, job_queue_size, handler, runtime, startup_timeout, s3_sse_kms' },
    });
  });

  it.each([
    ['DELETE', '/models/mlp/1.0', 'synchronous, timeout'],
    ['DELETE', '/models/mlp', 'synchronous, timeout'],
    ['GET', '/models/mlp', 'customized'],
    ['GET', '/models/mlp/all', 'customized'],
    ['PUT', '/models/mlp/1.0/set-default', 'none'],
  ])('refuses unknown query parameters on %s %s, which takes only TorchServe’s (%s), and changes nothing', async (method, path, allowed) => {
    expect(await manage(`${path}?bogus=1`, method)).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: `unknown query parameter \`bogus\`; allowed here: ${allowed}` },
    });
    expect(await manage('/models/mlp')).toMatchObject({ status: 200, body: [{ modelName: 'mlp', modelVersion: '1.0' }] });
  });

  it('refuses a model_name that breaks the manifest rule before downloading anything, even in the background', async () => {
    const url = encodeURIComponent(`${filesUrl}/models/mlp.sluice`);
    const before = downloads;
    expect(await manage(`/models?url=${url}&model_name=..%2Fevil&synchronous=false`, 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: "`model_name` must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$ (a letter or digit, then letters, digits, '_', '.' or '-'; at most 128 characters), got \"../evil\"",
      },
    });
    expect(downloads).toBe(before);
  });

  it('refuses default_priority above the priority_levels given with it', async () => {
    expect(await manage('/models?url=iris&model_name=iris-prio&priority_levels=2&default_priority=3', 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: '`default_priority` (3) is above `priority_levels` (2); give a default_priority from 1 to 2 or more priority_levels',
      },
    });
    expect(await manage('/models/iris-prio')).toMatchObject({ status: 404 });
  });

  it("refuses default_priority above the manifest's priority levels when no priority_levels is given", async () => {
    expect(await manage('/models?url=iris&model_name=iris-prio&default_priority=5', 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message:
          "`default_priority` (5) is above the 1 priority level(s) of model `iris-prio` version `1.0` (its manifest's batching.priorityLevels); give a default_priority from 1 to 1, or priority_levels as well",
      },
    });
    expect(await manage('/models/iris-prio')).toMatchObject({ status: 404 });
  });

  it("keeps the default priority the manifest declares when priority_levels given without one still hold it", async () => {
    const registered = await registeredBatching(`${encodeURIComponent(`${filesUrl}/models/low-default.sluice`)}&model_name=low-default-16&priority_levels=16`, 'low-default-16');
    expect(registered.status).toBe(200);
    expect(registered.batching).toMatchObject({ priorityLevels: 16, defaultPriority: 3 });
  });

  it("refuses priority_levels without default_priority that leave out the manifest's declared default", async () => {
    expect(await manage(`/models?url=${encodeURIComponent(`${filesUrl}/models/low-default.sluice`)}&model_name=low-default-2&priority_levels=2`, 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message:
          "`priority_levels` (2) leaves out the default priority 3 of model `low-default-2` version `1.0` (its manifest's batching.defaultPriority); give a default_priority from 1 to 2 as well, or at least 3 priority_levels",
      },
    });
    expect(await manage('/models/low-default-2')).toMatchObject({ status: 404 });
  });

  it('moves the default priority to the middle of priority_levels given for a manifest that declares none', async () => {
    const registered = await registeredBatching('mlp&model_name=mlp-levels&priority_levels=5', 'mlp-levels');
    expect(registered.status).toBe(200);
    expect(registered.batching).toMatchObject({ priorityLevels: 5, defaultPriority: 3 });
  });

  it('refuses preferred_batch_sizes that repeat a size or exceed the batch_size given with them, before downloading anything', async () => {
    const url = encodeURIComponent(`${filesUrl}/models/mlp.sluice`);
    const before = downloads;
    expect(await manage(`/models?url=${url}&model_name=mlp-sizes&preferred_batch_sizes=8,8,100&batch_size=4&synchronous=false`, 'POST')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message: '`preferred_batch_sizes` gives 8 more than once; give each size once' },
    });
    expect(await manage(`/models?url=${url}&model_name=mlp-sizes&preferred_batch_sizes=2,100&batch_size=4&synchronous=false`, 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: '`preferred_batch_sizes` holds 100, more than `batch_size` (4); give sizes from 1 to 4, or a larger batch_size',
      },
    });
    expect(downloads).toBe(before);
    expect(await manage('/models/mlp-sizes')).toMatchObject({ status: 404 });
  });

  it("refuses preferred_batch_sizes above the manifest's batch size when no batch_size is given", async () => {
    expect(await manage('/models?url=mlp&model_name=mlp-sizes&preferred_batch_sizes=8,100', 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message:
          "`preferred_batch_sizes` holds 100, more than the batch size model `mlp-sizes` version `1.0` runs with (64, from its manifest's batching.maxBatchSize or its executor); give sizes from 1 to 64, or batch_size as well",
      },
    });
    expect(await manage('/models/mlp-sizes')).toMatchObject({ status: 404 });
  });

  it("refuses a batch_size below the manifest's preferred batch sizes, and takes it with preferred_batch_sizes", async () => {
    await addStoreModel(t.config.modelStore, 'tuned', (dir) => writeIdentityModel(dir, 'FP32', [-1, 2]), {
      name: 'tuned',
      version: '1',
      batching: { maxBatchSize: 32, preferredBatchSizes: [8, 16] },
    });
    expect(await manage('/models?url=tuned&batch_size=4', 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message:
          "`batch_size` (4) is below the preferred batch sizes of model `tuned` version `1` (8, 16, from its manifest's batching.preferredBatchSizes); give a batch_size of at least 16, or preferred_batch_sizes as well (empty for none)",
      },
    });
    expect(await manage('/models/tuned')).toMatchObject({ status: 404 });
    expect(await manage('/models?url=tuned&batch_size=4&preferred_batch_sizes=', 'POST')).toMatchObject({ status: 200 });
    expect((await manage('/models/tuned')).body).toMatchObject([{ batchSize: 4, batching: { preferredBatchSizes: [] } }]);
  });

  it.each([
    ['response_timeout', 86_401, 'query parameter `response_timeout` must be an integer between 1 and 86400, got "86401"'],
    ['max_batch_delay', 3_600_001, 'query parameter `max_batch_delay` must be a number between 0 and 3600000 (fractions allowed, such as 0.5), got "3600001"'],
    ['batch_size', 4097, 'query parameter `batch_size` must be an integer between 1 and 4096, got "4097"'],
  ])('refuses %s above the limit gRPC has, registering nothing', async (parameter, value, message) => {
    expect(await manage(`/models?url=iris&model_name=iris-limits&${parameter}=${value}`, 'POST')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT', message },
    });
    expect(await manage('/models/iris-limits')).toMatchObject({ status: 404 });
  });

  it('takes response_timeout and max_batch_delay at their limits', async () => {
    expect(await manage('/models?url=iris&model_name=iris-limits&response_timeout=86400&max_batch_delay=3600000', 'POST')).toMatchObject({ status: 200 });
    expect((await manage('/models/iris-limits')).body).toMatchObject([{ responseTimeout: 86_400, maxBatchDelay: 3_600_000 }]);
    expect(await manage('/models/iris-limits', 'DELETE')).toMatchObject({ status: 200 });
  });

  it('takes a max_batch_delay under a millisecond', async () => {
    expect(await manage('/models?url=iris&model_name=iris-fraction&max_batch_delay=0.25', 'POST')).toMatchObject({ status: 200 });
    expect((await manage('/models/iris-fraction')).body).toMatchObject([{ maxBatchDelay: 0.25, batching: { maxBatchDelayMs: 0.25 } }]);
    expect(await manage('/models/iris-fraction', 'DELETE')).toMatchObject({ status: 200 });
  });

  it('refuses a model whose version is "all", which GET /models/{m}/all could not describe on its own', async () => {
    await addStoreModel(t.config.modelStore, 'all-version', (d) => writeIdentityModel(d, 'FP32', [-1, 2]), { name: 'all-version', version: 'all' });
    expect(await manage('/models?url=all-version', 'POST')).toMatchObject({
      status: 400,
      body: {
        errorCode: 'SLUICE_MANIFEST_INVALID',
        message: 'all-version/model.yaml: `version` must not be "all": the management APIs read "all" as every version of a model (GET /models/<name>/all); choose another version',
      },
    });
    expect(await manage('/models/all-version')).toMatchObject({ status: 404 });
  });
});
