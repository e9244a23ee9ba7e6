import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REGISTRATION_LIMITS } from '../../../src/api/models/registration-limits.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { batchDelayProblem, batchSettingsProblem, batchSizeProblem, MAX_BATCH_DELAY_MS, MAX_BATCH_SIZE } from '../../../src/serving/batching-limits.js';

interface BatchingSchema {
  readonly properties: {
    readonly batching: { readonly properties: { readonly maxBatchSize: { readonly maximum: number }; readonly maxBatchDelayMs: { readonly maximum: number } } };
  };
}

describe('MAX_BATCH_SIZE and MAX_BATCH_DELAY_MS', () => {
  it('are the bounds of model.yaml and of the management APIs', () => {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', 'model.schema.json'), 'utf8')) as BatchingSchema;
    const { maxBatchSize, maxBatchDelayMs } = schema.properties.batching.properties;
    expect([maxBatchSize.maximum, REGISTRATION_LIMITS.maxBatchSize, maxBatchDelayMs.maximum, REGISTRATION_LIMITS.maxBatchDelayMs]).toEqual([
      MAX_BATCH_SIZE,
      MAX_BATCH_SIZE,
      MAX_BATCH_DELAY_MS,
      MAX_BATCH_DELAY_MS,
    ]);
  });
});

describe('batchSizeProblem', () => {
  it.each([0, 4097, 1.5])('names the setting and the range for %s', (size) => {
    expect(batchSizeProblem('batch-size', size)).toBe(`\`batch-size\` must be an integer between 1 and 4096, got ${size}`);
  });

  it('finds nothing wrong from 1 to 4096', () => {
    expect([batchSizeProblem('batchSize', 1), batchSizeProblem('batchSize', 4096)]).toEqual([undefined, undefined]);
  });
});

describe('batchDelayProblem', () => {
  it.each([-1, 3_600_001, Number.NaN])('names the setting and the range for %s', (delayMs) => {
    expect(batchDelayProblem('max-batch-delay', delayMs)).toBe(`\`max-batch-delay\` must be between 0 and 3600000 milliseconds, got ${delayMs}`);
  });

  it('finds nothing wrong from 0 to one hour, fractions included', () => {
    expect([batchDelayProblem('maxBatchDelayMs', 0), batchDelayProblem('maxBatchDelayMs', 0.5), batchDelayProblem('maxBatchDelayMs', 3_600_000)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('batchSettingsProblem', () => {
  it('names the batch size under the core’s name', () => {
    expect(batchSettingsProblem({ batchSize: 5000, maxBatchDelayMs: 5 })).toBe('`batchSize` must be an integer between 1 and 4096, got 5000');
  });

  it('names the batch delay under the core’s name', () => {
    expect(batchSettingsProblem({ batchSize: 4, maxBatchDelayMs: 1e9 })).toBe('`maxBatchDelayMs` must be between 0 and 3600000 milliseconds, got 1000000000');
  });

  it('finds nothing wrong with settings not given', () => {
    expect(batchSettingsProblem({})).toBeUndefined();
  });
});
