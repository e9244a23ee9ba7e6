import { ROOT_CONTEXT, type Context, type Link, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import type { BatchFacts, BatchTracing, QueuedTrace } from '../../batching/batch-tracing.js';
import { ATTR, SPAN } from '../telemetry-names.js';
import { recordingSpanOf, tracerOf } from './trace-context.js';
import { recordFailure } from './span-helpers.js';

/** A traced request in a queue: its `queue.wait` span, and the request span a batch links to. */
class SpanQueuedTrace implements QueuedTrace {
  private waiting = true;

  constructor(
    readonly tracer: Tracer,
    readonly request: SpanContext,
    private readonly wait: Span,
  ) {}

  dequeued(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.wait.end();
  }
}

/** What is fixed for every batch of one model version. */
export interface BatchTracingTarget {
  readonly model: string;
  readonly version: string;
  readonly executionProvider: string;
}

/**
 * Batch tracing for one model version. A request queued with a sampled trace context gets a
 * `queue.wait` child span of that context's span; each batch with such requests runs within a
 * `batch.execute` span, the root of its own trace (a batch serves several traces), with one link per
 * request span it served. The batch's run is not handed the span's context: nothing below the
 * scheduler starts spans.
 */
export function createBatchTracing(target: BatchTracingTarget): BatchTracing {
  return {
    enqueued(parent: Context): QueuedTrace | undefined {
      const tracer = tracerOf(parent);
      if (tracer === undefined) return undefined;
      const request = recordingSpanOf(parent);
      if (request === undefined) return undefined;
      // No attributes: the request span it belongs to names the model already, and each one costs on export.
      const wait = tracer.startSpan(SPAN.queueWait, undefined, parent);
      return new SpanQueuedTrace(tracer, request.spanContext(), wait);
    },

    async runBatch<T>(traces: readonly QueuedTrace[], facts: BatchFacts, run: () => Promise<T>): Promise<T> {
      const spans = traces.filter((t): t is SpanQueuedTrace => t instanceof SpanQueuedTrace);
      const first = spans[0];
      if (first === undefined) return run();
      const links: Link[] = spans.map((t) => ({ context: t.request }));
      const span = first.tracer.startSpan(
        SPAN.batchExecute,
        {
          root: true,
          links,
          attributes: {
            [ATTR.model]: target.model,
            [ATTR.modelVersion]: target.version,
            [ATTR.executionProvider]: target.executionProvider,
            [ATTR.batchSize]: facts.size,
            [ATTR.batchRows]: facts.rows,
            [ATTR.instance]: facts.instanceId,
            [ATTR.device]: facts.device,
          },
        },
        ROOT_CONTEXT,
      );
      try {
        return await run();
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  };
}
