import { describe, expect, it } from '@jest/globals';
import { gpuBatchingDefaults } from '../../../../plugins/gpu-executor/batching-defaults.js';

describe('gpuBatchingDefaults', () => {
  it('batches up to 32 requests, waiting up to 2 ms, when the manifest says nothing', () => {
    expect(gpuBatchingDefaults({})).toEqual({ maxBatchSize: 32, maxBatchDelayMs: 2, preferredBatchSizes: [] });
  });

  it('keeps what the manifest declares', () => {
    expect(gpuBatchingDefaults({ maxBatchSize: 8, maxBatchDelayMs: 0, preferredBatchSizes: [4, 8] })).toEqual({
      maxBatchSize: 8,
      maxBatchDelayMs: 0,
      preferredBatchSizes: [4, 8],
    });
  });

  it('batches up to 32 when every tensor has a variable first dimension', () => {
    const tensors = [{ name: 'x', datatype: 'FP32', shape: [-1, 3] }] as const;
    expect(gpuBatchingDefaults({}, tensors).maxBatchSize).toBe(32);
  });

  it('does not batch by default a model with a fixed first dimension', () => {
    const tensors = [
      { name: 'x', datatype: 'FP32', shape: [-1, 3] },
      { name: 'y', datatype: 'FP32', shape: [1, 3] },
    ] as const;
    expect(gpuBatchingDefaults({}, tensors).maxBatchSize).toBe(1);
  });
});
