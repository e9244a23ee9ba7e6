import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@grpc/grpc-js';
import { grpcClient, unary } from '../support/grpc-clients.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, memoryLogger, requestJson, startTestServer, type TestServer } from '../support/test-server.js';

interface SnapshotFile {
  readonly models: readonly { readonly name: string; readonly version: string; readonly isDefault: boolean; readonly maxWorkers: number }[];
}

describe('snapshot entries that fail to load at start-up', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  const irisFile = (): string => join(dir, 'model-store', 'iris', 'model.onnx');
  const hideIris = (): Promise<void> => rename(irisFile(), `${irisFile()}.away`);
  const bringIrisBack = (): Promise<void> => rename(`${irisFile()}.away`, irisFile());
  const snapshot = async (): Promise<SnapshotFile> => JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8')) as SnapshotFile;
  const names = async (server: TestServer): Promise<unknown> => (await requestJson(`${server.management}/models`)).body;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-unrestored-'));
    const first = await startTestServer({ dir, prepare: (store) => copyDemoModels(store) });
    await requestJson(`${first.management}/models/iris?max_worker=3&synchronous=true`, { method: 'PUT' });
    await first.server.stop();
  });
  afterAll(async () => {
    await cleanup();
  });

  it('serves the other models, lists the one kept but not loaded as NOT_LOADED, logs it, and keeps it in the next snapshot written', async () => {
    await hideIris();
    const lines: string[] = [];
    const second = await startTestServer({ dir, logger: memoryLogger(lines) });
    try {
      expect(await names(second)).toEqual({ models: [{ modelName: 'iris', modelUrl: 'iris', status: 'NOT_LOADED' }, { modelName: 'mlp', modelUrl: 'mlp' }] });
      expect(await requestJson(`${second.inference}/predictions/mlp`, { method: 'POST', json: new Array<number>(64).fill(0.5) })).toMatchObject({ status: 200 });
      const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logged).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: 'model from the snapshot kept in the snapshot but not loaded: the next start tries it again; unregister it or register it again to change that',
          model: 'iris',
          version: '1.0',
        }),
      );
      expect(await requestJson(`${second.management}/models/mlp?min_worker=2&synchronous=true`, { method: 'PUT' })).toMatchObject({ status: 200 });
      expect((await snapshot()).models).toEqual([
        expect.objectContaining({ name: 'mlp', version: '1.0', minWorkers: 2 }),
        expect.objectContaining({ name: 'iris', version: '1.0', isDefault: true, maxWorkers: 3 }),
      ]);
    } finally {
      await second.server.stop();
    }
  });

  describe('the model kept but not loaded, as the management APIs show it', () => {
    let kept: TestServer;
    let grpc: Client;
    const notLoaded = (): Record<string, unknown> => ({
      modelName: 'iris',
      modelVersion: '1.0',
      modelUrl: 'iris',
      isDefault: true,
      status: 'NOT_LOADED',
      loadError: 'iris/model.yaml: `model` ("model.onnx") does not exist; put the file in the model directory or fix the path',
      minWorkers: 1,
      maxWorkers: 3,
      batchSize: 1,
      maxBatchDelay: 0,
      responseTimeout: 120,
      jobQueueSize: 100,
      workers: [],
    });

    beforeAll(async () => {
      kept = await startTestServer({ dir });
      grpc = grpcClient('torchserveManagement', kept.grpcManagement);
    });
    afterAll(async () => {
      grpc.close();
      await kept.server.stop();
    });

    it('describes it at GET /models/{m} as NOT_LOADED, with what the snapshot records and its load error', async () => {
      expect(await requestJson(`${kept.management}/models/iris`)).toEqual({ status: 200, headers: expect.any(Headers), body: [notLoaded()] });
    });

    it('describes it at GET /models/{m}/{v} and GET /models/{m}/all', async () => {
      expect((await requestJson(`${kept.management}/models/iris/1.0`)).body).toEqual([notLoaded()]);
      expect((await requestJson(`${kept.management}/models/iris/all`)).body).toEqual([notLoaded()]);
    });

    it('answers the same over gRPC ListModels and DescribeModel', async () => {
      const list = await unary<{ msg: string }>(grpc, 'ListModels', {});
      expect(JSON.parse(list.msg)).toEqual({ models: [{ modelName: 'iris', modelUrl: 'iris', status: 'NOT_LOADED' }, { modelName: 'mlp', modelUrl: 'mlp' }] });
      const described = await unary<{ msg: string }>(grpc, 'DescribeModel', { model_name: 'iris' });
      expect(JSON.parse(described.msg)).toEqual([notLoaded()]);
    });

    it('answers 404 SLUICE_MODEL_VERSION_NOT_FOUND for a version the snapshot does not hold, listing the one not loaded', async () => {
      expect(await requestJson(`${kept.management}/models/iris/2.0`)).toEqual({
        status: 404,
        headers: expect.any(Headers),
        body: {
          code: 404,
          type: 'ModelVersionNotFoundException',
          errorCode: 'SLUICE_MODEL_VERSION_NOT_FOUND',
          message: 'model `iris` has no version `2.0`; its versions: 1.0 (NOT_LOADED)',
        },
      });
    });
  });

  it('restores the kept model, with its settings, at the next start once its file is back', async () => {
    await bringIrisBack();
    const third = await startTestServer({ dir });
    try {
      expect(await names(third)).toEqual({ models: [{ modelName: 'iris', modelUrl: 'iris' }, { modelName: 'mlp', modelUrl: 'mlp' }] });
      expect((await requestJson(`${third.management}/models/iris`)).body).toMatchObject([{ maxWorkers: 3, status: 'READY' }]);
    } finally {
      await third.server.stop();
    }
  });

  it('replaces the kept entry with a registration of the same version', async () => {
    await hideIris();
    const fourth = await startTestServer({ dir });
    try {
      await bringIrisBack();
      expect(await requestJson(`${fourth.management}/models?url=iris&initial_workers=1`, { method: 'POST' })).toMatchObject({ status: 200 });
      expect((await snapshot()).models.filter((m) => m.name === 'iris')).toEqual([expect.objectContaining({ version: '1.0', isDefault: true, maxWorkers: 1 })]);
    } finally {
      await fourth.server.stop();
    }
  });

  it('drops the kept entry from the snapshot when it is unregistered', async () => {
    await hideIris();
    const fifth = await startTestServer({ dir });
    try {
      expect(await requestJson(`${fifth.management}/models/iris`, { method: 'DELETE' })).toMatchObject({
        status: 200,
        body: { status: 'Model "iris" unregistered (versions 1.0)' },
      });
      expect((await snapshot()).models.map((m) => m.name)).toEqual(['mlp']);
    } finally {
      await fifth.server.stop();
      await bringIrisBack();
    }
  });
});
