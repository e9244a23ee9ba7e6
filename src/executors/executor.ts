import type { SluiceError } from '../common/errors/index.js';
import type { Tensor } from '../common/tensor/index.js';
import type { InferenceJob } from '../batching/scheduler.js';
import type { LoadedModel } from '../runtime/model-runtime.js';

/** The result of one job inside a batch: its outputs or its own error. */
export type JobResult = { readonly ok: true; readonly outputs: readonly Tensor[] } | { readonly ok: false; readonly error: SluiceError };

/**
 * Runs batches of validated jobs on a device. The extension point for execution: the CPU executor is the
 * default; other executors (the GPU batching executor) implement the same interface.
 */
export interface Executor {
  /** Name used in model manifests and logs. */
  readonly name: string;
  /** Runs `jobs` on `model`; resolves with exactly one result per job, in order, and never rejects. */
  execute(model: LoadedModel, jobs: readonly InferenceJob[]): Promise<readonly JobResult[]>;
}
