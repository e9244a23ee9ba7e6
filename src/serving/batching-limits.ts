/**
 * The most rows one run may take: the bound of `batching.maxBatchSize` in `model.yaml` and of the management
 * APIs' `batch_size`. The core holds every other source of a batch size (a snapshot, a TorchServe workflow
 * spec's `batch-size`, an embedder's call) to it too.
 */
export const MAX_BATCH_SIZE = 4096;

/**
 * The longest batch delay, in milliseconds (one hour): the bound of `batching.maxBatchDelayMs` in
 * `model.yaml`, of the management APIs' `max_batch_delay` and, in the core, of every other source.
 */
export const MAX_BATCH_DELAY_MS = 3_600_000;

/** What is wrong with batch size `size`, named `name` as its source names it; undefined when nothing is. */
export function batchSizeProblem(name: string, size: number): string | undefined {
  if (Number.isInteger(size) && size >= 1 && size <= MAX_BATCH_SIZE) return undefined;
  return `\`${name}\` must be an integer between 1 and ${MAX_BATCH_SIZE}, got ${size}`;
}

/** What is wrong with batch delay `delayMs`, named `name` as its source names it; undefined when nothing is. */
export function batchDelayProblem(name: string, delayMs: number): string | undefined {
  // Written so that NaN fails too.
  if (delayMs >= 0 && delayMs <= MAX_BATCH_DELAY_MS) return undefined;
  return `\`${name}\` must be between 0 and ${MAX_BATCH_DELAY_MS} milliseconds, got ${delayMs}`;
}

/**
 * What is wrong with the batch size or delay of `settings`, under the core's names (`batchSize`,
 * `maxBatchDelayMs`): for sources the management APIs do not check (an embedder's call, a snapshot).
 * Undefined when nothing is.
 */
export function batchSettingsProblem(settings: { readonly batchSize?: number | undefined; readonly maxBatchDelayMs?: number | undefined }): string | undefined {
  const { batchSize, maxBatchDelayMs } = settings;
  return (
    (batchSize === undefined ? undefined : batchSizeProblem('batchSize', batchSize)) ??
    (maxBatchDelayMs === undefined ? undefined : batchDelayProblem('maxBatchDelayMs', maxBatchDelayMs))
  );
}
