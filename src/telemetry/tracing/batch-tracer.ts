import { ROOT_CONTEXT, context, trace, type Link, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import type { BatchFacts, BatchTracing, QueuedTrace } from '../../batching/batch-tracing.js';
import { ATTR, SPAN } from '../telemetry-names.js';
import { activeTracer, contextWithTracer, recordingSpan } from './active-tracer.js';
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
 * Batch tracing for one model version. A request queued inside a sampled request span gets a
 * `queue.wait` child span; each batch with such requests runs inside a `batch.execute` span, the root
 * of its own trace (a batch serves several traces), with one link per request span it served.
 */
export function createBatchTracing(target: BatchTracingTarget): BatchTracing {
  return {
    enqueued(): QueuedTrace | undefined {
      const tracer = activeTracer();
      if (tracer === undefined) return undefined;
      const request = recordingSpan();
      if (request === undefined) return undefined;
      // No attributes: the request span it belongs to names the model already, and each one costs on export.
      const wait = tracer.startSpan(SPAN.queueWait);
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
        return await context.with(contextWithTracer(trace.setSpan(ROOT_CONTEXT, span), first.tracer), run);
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  };
}
