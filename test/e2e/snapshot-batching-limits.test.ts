import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startFromEditedSnapshot, type EditedSnapshotServer } from '../support/edited-snapshot.js';
import { requestJson, type TestServer } from '../support/test-server.js';

describe('batch sizes and delays beyond the bounds of model.yaml', () => {
  let started: EditedSnapshotServer | undefined;
  const server = (): TestServer => started!.server;

  beforeAll(async () => {
    // A hand-edited snapshot: the management APIs never write such a batch size.
    started = await startFromEditedSnapshot('sluice-batching-', (model) => {
      model['batchSize'] = 100_000;
    });
  });
  afterAll(async () => {
    await started?.stop();
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
