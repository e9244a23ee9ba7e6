import type { Context } from '@opentelemetry/api';
import type { SluiceError } from '../sdk/errors/index.js';
import type { RequestBudget } from '../budget/request-budget.js';
import type { Tensor } from '../sdk/tensor/index.js';

/** One validated inference request as the scheduler sees it. */
export interface InferenceJob {
  readonly inputs: readonly Tensor[];
  /** Outputs to compute, in answer order; all of the model's outputs when omitted. */
  readonly outputNames?: readonly string[];
  /**
   * What bounds the job, read as every layer reads it: its hard `deadline` (the version's response
   * timeout or the client's earlier one, already folded in: past it the job answers
   * `SLUICE_RESPONSE_TIMEOUT`, queued or running), its own timeout `timeoutAt` (`x-sluice-timeout-ms`, OIP
   * `timeout`: the queue policy says what happens when it passes while queued), its `priority` (the
   * version's default level when absent) and its cancellation: a queued job whose client left is dropped
   * without running, at once when the cancellation has a signal, else when a batch next forms.
   */
  readonly budget: RequestBudget;
  /**
   * Start no batch before the current turn of the event loop ends: jobs submitted together (the calls of a
   * workflow `forEach`) then share a batch even when an instance is idle.
   */
  readonly gather?: boolean;
  /**
   * The trace context of the caller (a request's server span, a workflow node's span), opaque to the
   * scheduler: its `queue.wait` span and the link from its batch's span start from it. Absent when the
   * caller is not traced.
   */
  readonly traceContext?: Context;
}

/** The answer to one {@link InferenceJob}. */
export interface InferenceOutcome {
  readonly outputs: readonly Tensor[];
  /** Time from enqueue to the start of execution, in microseconds. */
  readonly queueUs: number;
  /** Time the batch's execution took, in microseconds. */
  readonly computeUs: number;
  /** The instance that ran the job. */
  readonly instanceId: string;
  /** Requests in the batch the job ran in. */
  readonly batchSize: number;
}

/**
 * Accepts jobs for one model version and answers each exactly once. Implementations own the queue, the
 * instances and the queue policy; they know nothing of HTTP.
 */
export interface Scheduler {
  /** Queues a job; resolves with its outcome or rejects with a `SluiceError`. */
  enqueue(job: InferenceJob): Promise<InferenceOutcome>;
  /**
   * Jobs accepted and not yet finished (queued plus running). A job answered with a timeout while running
   * still counts until its run ends, so that a drain waits for the run.
   */
  inflightCount(): number;
  /**
   * Stops accepting jobs, answers every queued job with `reason` (default: the model is unloading) and
   * resolves once running jobs have finished. Idempotent.
   */
  stop(reason?: SluiceError): Promise<void>;
}
