import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFromEditedSnapshot, type EditedSnapshotServer } from '../support/edited-snapshot.js';
import { requestJson, type TestServer } from '../support/test-server.js';

describe('worker counts above the 256 a model version may have', () => {
  let started: EditedSnapshotServer | undefined;
  const server = (): TestServer => started!.server;

  beforeAll(async () => {
    // A hand-edited snapshot: the management APIs never write such a count.
    started = await startFromEditedSnapshot('sluice-workers-', (model) => {
      Object.assign(model, { minWorkers: 100_000, maxWorkers: 100_000 });
    });
  });
  afterAll(async () => {
    await started?.stop();
  });

  it('in a snapshot entry: the server starts, and shows the entry as not loaded, saying what is wrong', async () => {
    expect((await requestJson(`${server().management}/models/iris`)).body).toEqual([
      expect.objectContaining({
        status: 'NOT_LOADED',
        loadError: 'the snapshot gives iris@1.0 `minWorkers` 100000, more than the 256 workers a model version may have; register it again, or unregister it',
      }),
    ]);
  });

  it('in a scale the embedder asks of the core: refused with SLUICE_MANAGEMENT_INVALID_ARGUMENT', async () => {
    expect(await requestJson(`${server().management}/models?url=iris`, { method: 'POST' })).toMatchObject({ status: 200 });
    await expect(server().server.core.manager.scale('iris', undefined, { min: 100_000 })).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
      message: '`min_worker` (100000) is more than the 256 workers a model version may have; give at most 256',
    });
    expect((await requestJson(`${server().management}/models/iris`)).body).toEqual([expect.objectContaining({ minWorkers: 1, status: 'READY' })]);
  });

  it('in a registration the embedder asks of the core: refused with SLUICE_MANAGEMENT_INVALID_ARGUMENT', () => {
    expect(() => server().server.core.manager.register({ url: 'iris', name: 'crowded', maxWorkers: 300 })).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
        message: '`maxWorkers` (300) is more than the 256 workers a model version may have; give at most 256',
      }),
    );
  });
});
