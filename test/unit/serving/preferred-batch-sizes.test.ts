import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import { checkGivenPreferredBatchSizes, checkPreferredBatchSizesAgainst } from '../../../src/serving/preferred-batch-sizes.js';
import type { VersionSettings } from '../../../src/serving/version-settings.js';

function thrown(check: () => void): { code: string; message: string } | undefined {
  try {
    check();
  } catch (error) {
    if (error instanceof SluiceError) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

function settings(batchSize: number, preferredBatchSizes: readonly number[]): VersionSettings {
  return {
    minWorkers: 1,
    maxWorkers: 1,
    batchSize,
    maxBatchDelayMs: 0,
    preferredBatchSizes,
    priorityLevels: 1,
    defaultPriority: 1,
    queuePolicy: 'reject',
    preserveOrdering: false,
    responseTimeoutMs: 1000,
    jobQueueSize: 10,
    autoscale: { enabled: false, intervalMs: 1000, scaleUpQueueMs: 50, scaleUpAfter: 3, scaleDownIdleMs: 30000, cooldownMs: 5000 },
  };
}

const MODEL = 'model `m` version `1`';

describe('checkGivenPreferredBatchSizes', () => {
  it('refuses a size given twice', () => {
    expect(thrown(() => { checkGivenPreferredBatchSizes({ preferredBatchSizes: [8, 2, 8] }); })).toEqual({
      code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
      message: '`preferred_batch_sizes` gives 8 more than once; give each size once',
    });
  });

  it('refuses a size above the batch_size given with it', () => {
    expect(thrown(() => { checkGivenPreferredBatchSizes({ preferredBatchSizes: [2, 100], batchSize: 4 }); })).toEqual({
      code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
      message: '`preferred_batch_sizes` holds 100, more than `batch_size` (4); give sizes from 1 to 4, or a larger batch_size',
    });
  });

  it('accepts distinct sizes up to the batch_size given with them', () => {
    expect(thrown(() => { checkGivenPreferredBatchSizes({ preferredBatchSizes: [2, 4], batchSize: 4 }); })).toBeUndefined();
  });

  it('leaves sizes without a batch_size to the check against the manifest', () => {
    expect(thrown(() => { checkGivenPreferredBatchSizes({ preferredBatchSizes: [100] }); })).toBeUndefined();
  });
});

describe('checkPreferredBatchSizesAgainst', () => {
  it("refuses given sizes above the manifest's batch size", () => {
    expect(thrown(() => { checkPreferredBatchSizesAgainst({ preferredBatchSizes: [8, 16] }, settings(8, [8, 16]), MODEL); })).toEqual({
      code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
      message:
        "`preferred_batch_sizes` holds 16, more than the batch size model `m` version `1` runs with (8, from its manifest's batching.maxBatchSize or its executor); give sizes from 1 to 8, or batch_size as well",
    });
  });

  it("refuses a given batch_size below the manifest's preferred sizes", () => {
    expect(thrown(() => { checkPreferredBatchSizesAgainst({ batchSize: 4 }, settings(4, [2, 8, 16]), MODEL); })).toEqual({
      code: 'SLUICE_MANAGEMENT_INVALID_ARGUMENT',
      message:
        "`batch_size` (4) is below the preferred batch sizes of model `m` version `1` (2, 8, 16, from its manifest's batching.preferredBatchSizes); give a batch_size of at least 16, or preferred_batch_sizes as well (empty for none)",
    });
  });

  it('accepts a given batch_size at least every preferred size of the manifest', () => {
    expect(thrown(() => { checkPreferredBatchSizesAgainst({ batchSize: 16 }, settings(16, [8, 16]), MODEL); })).toBeUndefined();
  });

  it('leaves settings that give both, or neither, alone (a snapshot, a manifest the loader checked)', () => {
    expect(thrown(() => { checkPreferredBatchSizesAgainst({ batchSize: 4, preferredBatchSizes: [8] }, settings(4, [8]), MODEL); })).toBeUndefined();
    expect(thrown(() => { checkPreferredBatchSizesAgainst({}, settings(4, [8]), MODEL); })).toBeUndefined();
  });
});
