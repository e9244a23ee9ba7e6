import type { SluiceError } from '../common/errors/index.js';
import type { Tensor } from '../common/tensor/index.js';

/** One validated inference request as the scheduler sees it. */
export interface InferenceJob {
  readonly inputs: readonly Tensor[];
  /** Outputs to compute, in answer order; all of the model's outputs when omitted. */
  readonly outputNames?: readonly string[];
  /** Absolute deadline in `performance.now()` milliseconds; past it the job answers `SLUICE_RESPONSE_TIMEOUT`. */
  readonly deadline: number;
  /** Aborted when the client goes away: a job still queued is dropped without running. */
  readonly signal?: AbortSignal;
}

/** The answer to one {@link InferenceJob}. */
export interface InferenceOutcome {
  readonly outputs: readonly Tensor[];
  /** Time from enqueue to the start of execution, in microseconds. */
  readonly queueUs: number;
  /** Time the execution took, in microseconds. */
  readonly computeUs: number;
  /** The instance that ran the job. */
  readonly instanceId: string;
}

/**
 * Accepts jobs for one model version and answers each exactly once. Implementations own the queue, the
 * instances and the queue policy; they know nothing of HTTP.
 */
export interface Scheduler {
  /** Queues a job; resolves with its outcome or rejects with a `SluiceError`. */
  enqueue(job: InferenceJob): Promise<InferenceOutcome>;
  /** Jobs queued plus jobs executing; a job answered with a timeout while running counts until its run ends. */
  inflightCount(): number;
  /**
   * Stops accepting jobs, answers every queued job with `reason` (default: the model is unloading) and
   * resolves once running jobs have finished. Idempotent.
   */
  stop(reason?: SluiceError): Promise<void>;
}
