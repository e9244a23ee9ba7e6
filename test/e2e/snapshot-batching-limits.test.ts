import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson, startTestServer, type TestServer } from '../support/test-server.js';

interface SnapshotFile {
  readonly models: { batchSize: number; maxBatchDelayMs: number }[];
}

describe('batch sizes and delays beyond the bounds of model.yaml', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let t: TestServer | undefined;
  const server = (): TestServer => t!;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-batching-'));
    const first = await startTestServer({ dir, demoModels: ['iris'], prepare: (store) => copyDemoModels(store, ['iris']) });
    await first.server.stop();
    // A hand-edited snapshot: the management APIs never write such a batch size.
    const file = join(dir, 'snapshot.json');
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as SnapshotFile;
    for (const model of snapshot.models) model.batchSize = 100_000;
    await writeFile(file, JSON.stringify(snapshot));
    t = await startTestServer({ dir });
  });
  afterAll(async () => {
    await t?.server.stop();
    await cleanup();
  });

  it('in a snapshot entry: the server starts, and shows the entry as not loaded, saying what is wrong', async () => {
    expect((await requestJson(`${server().management}/models/iris`)).body).toEqual([
      expect.objectContaining({
        status: 'NOT_LOADED',
        loadError: "the snapshot's entry for iris@1.0: `batchSize` must be an integer between 1 and 4096, got 100000; register it again, or unregister it",
      }),
    ]);
  });

  it('in a registration the embedder asks of the core: refused with SLUICE_MANAGEMENT_INVALID_ARGUMENT', () => {
    expect(() => server().server.core.manager.register({ url: 'iris', name: 'patient', maxBatchDelayMs: 3_600_001 })).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: '`maxBatchDelayMs` must be between 0 and 3600000 milliseconds, got 3600001',
      }),
    );
  });
});
