import type { BatchingDefaults, DeclaredBatching, TensorSpec } from '../../src/sdk/index.js';

/** `batching.maxBatchSize` for GPU models whose manifest gives none: GPUs need large batches to be busy. */
export const GPU_DEFAULT_MAX_BATCH_SIZE = 32;

/**
 * `batching.maxBatchDelayMs` for GPU models whose manifest gives none: long enough to gather requests that
 * arrive together, short next to a batch's run on a GPU (tens of milliseconds for an image model).
 */
export const GPU_DEFAULT_MAX_BATCH_DELAY_MS = 2;

/** Batching keys as a manifest declares them (the SDK's type). */
export type { DeclaredBatching } from '../../src/sdk/index.js';

/** Batching settings with every key filled in (the SDK's type). */
export type GpuBatching = BatchingDefaults;

/**
 * Batching for a model on the GPU executor: what the manifest declares, and for what it leaves out
 * {@link GPU_DEFAULT_MAX_BATCH_SIZE} and {@link GPU_DEFAULT_MAX_BATCH_DELAY_MS}, except that a model with an
 * input or output whose first dimension is not variable cannot be batched, so its default is 1.
 */
export function gpuBatchingDefaults(declared: DeclaredBatching, tensors: readonly TensorSpec[] = []): GpuBatching {
  const batchable = tensors.every((spec) => spec.shape[0] === -1);
  return {
    maxBatchSize: declared.maxBatchSize ?? (batchable ? GPU_DEFAULT_MAX_BATCH_SIZE : 1),
    maxBatchDelayMs: declared.maxBatchDelayMs ?? GPU_DEFAULT_MAX_BATCH_DELAY_MS,
    preferredBatchSizes: declared.preferredBatchSizes ?? [],
  };
}
