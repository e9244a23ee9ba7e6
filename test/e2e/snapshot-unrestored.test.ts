import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
    await requestJson(`${first.management}/models/iris?max_worker=3`, { method: 'PUT' });
    await first.server.stop();
  });
  afterAll(async () => {
    await cleanup();
  });

  it('serves the other models, logs the one kept but not loaded, and keeps it in the next snapshot written', async () => {
    await hideIris();
    const lines: string[] = [];
    const second = await startTestServer({ dir, logger: memoryLogger(lines) });
    try {
      expect(await names(second)).toEqual({ models: [{ modelName: 'mlp', modelUrl: 'mlp' }] });
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
      expect(await requestJson(`${second.management}/models/mlp?min_worker=2`, { method: 'PUT' })).toMatchObject({ status: 200 });
      expect((await snapshot()).models).toEqual([
        expect.objectContaining({ name: 'mlp', version: '1.0', minWorkers: 2 }),
        expect.objectContaining({ name: 'iris', version: '1.0', isDefault: true, maxWorkers: 3 }),
      ]);
    } finally {
      await second.server.stop();
    }
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
