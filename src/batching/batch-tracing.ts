import type { Context } from '@opentelemetry/api';

/** What a traced request leaves on its payload; opaque to the scheduler. */
export interface QueuedTrace {
  /** The request left the queue (its batch started, or it was answered while queued). Idempotent. */
  dequeued(): void;
}

/** Facts about one batch that only the scheduler knows. */
export interface BatchFacts {
  readonly size: number;
  readonly rows: number;
  readonly instanceId: string;
  readonly device: string;
}

/**
 * How the scheduler reports requests and batches to tracing, without knowing about spans: `enqueued` is
 * called with the trace context the request brought (`InferenceJob.traceContext`) when it is
 * queued, `runBatch` wraps every batch run whose requests include traced ones. Absent when tracing is off.
 */
export interface BatchTracing {
  enqueued(parent: Context): QueuedTrace | undefined;
  runBatch<T>(traces: readonly QueuedTrace[], facts: BatchFacts, run: () => Promise<T>): Promise<T>;
}
