import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { packModelArchive } from '../../src/model-store/index.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson, startTestServer } from '../support/test-server.js';

describe('snapshots across restarts', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-restart-'));
    const first = await startTestServer({ dir, prepare: (store) => copyDemoModels(store) });
    await requestJson(`${first.management}/models?url=iris&model_name=iris-two&initial_workers=2&batch_size=3`, { method: 'POST' });
    await requestJson(`${first.management}/models/mlp?min_worker=2&max_worker=3&synchronous=true`, { method: 'PUT' });
    await requestJson(`${first.management}/models/iris`, { method: 'DELETE' });
    await first.server.stop();
  });
  afterAll(async () => {
    await cleanup();
  });

  it('writes the registered models and their settings to the snapshot file', async () => {
    const snapshot = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8')) as { models: unknown[] };
    expect(snapshot.models).toEqual([
      expect.objectContaining({ name: 'iris-two', version: '1.0', url: 'iris', isDefault: true, minWorkers: 2, batchSize: 3 }),
      expect.objectContaining({ name: 'mlp', version: '1.0', url: 'mlp', isDefault: true, minWorkers: 2, maxWorkers: 3 }),
    ]);
  });

  it('restores exactly what was registered, with its settings, after a restart', async () => {
    const second = await startTestServer({ dir });
    try {
      expect((await requestJson(`${second.management}/models`)).body).toEqual({
        models: [
          { modelName: 'iris-two', modelUrl: 'iris' },
          { modelName: 'mlp', modelUrl: 'mlp' },
        ],
      });
      expect((await requestJson(`${second.management}/models/mlp`)).body).toMatchObject([{ minWorkers: 2, maxWorkers: 3, workers: [{}, {}] }]);
      expect((await requestJson(`${second.management}/models/iris-two`)).body).toMatchObject([{ minWorkers: 2, batchSize: 3 }]);
      expect(await requestJson(`${second.inference}/predictions/iris-two`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] })).toMatchObject({
        status: 200,
        body: { label: 'setosa' },
      });
    } finally {
      await second.server.stop();
    }
  });

  it('ignores the snapshot with --no-snapshot and loads the configured models', async () => {
    const third = await startTestServer({ dir, restoreSnapshot: false });
    try {
      expect((await requestJson(`${third.management}/models`)).body).toEqual({
        models: [
          { modelName: 'iris', modelUrl: 'iris' },
          { modelName: 'mlp', modelUrl: 'mlp' },
        ],
      });
    } finally {
      await third.server.stop();
    }
  });

  it('restores a model registered from a URL without downloading it again', async () => {
    const { dir: remoteDir, cleanup: remoteCleanup } = await makeTempDir('sluice-restart-url-');
    const archive = join(remoteDir, 'mlp.sluice');
    const files = createServer((req, res) => {
      if (req.url === '/mlp.sluice') createReadStream(archive).pipe(res);
      else res.writeHead(404).end();
    });
    try {
      await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
      const address = files.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mlp.sluice`;
      const config = { allowedUrls: ['http://127\\.0\\.0\\.1:\\d+/.*'] };
      const first = await startTestServer({
        dir: remoteDir,
        config,
        prepare: async () => {
          await packModelArchive(join(packageRoot(), 'model-store', 'mlp'), archive);
        },
      });
      expect(await requestJson(`${first.management}/models?url=${encodeURIComponent(url)}&model_name=far`, { method: 'POST' })).toMatchObject({ status: 200 });
      await first.server.stop();
      await new Promise((resolve) => files.close(resolve));
      const second = await startTestServer({ dir: remoteDir, config });
      try {
        expect((await requestJson(`${second.management}/models/far`)).body).toMatchObject([{ modelName: 'far', modelUrl: url, status: 'READY' }]);
      } finally {
        await second.server.stop();
      }
    } finally {
      files.close();
      await remoteCleanup();
    }
  });
});
