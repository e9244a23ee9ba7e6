import { context, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { ObservedNodeStatus, WorkflowNodeObservation, WorkflowObserver, WorkflowRunObservation } from '../../workflow/index.js';
import type { ServingMetrics } from '../metrics/serving-metrics.js';
import { ATTR, SPAN } from '../telemetry-names.js';
import { activeTracer, contextWithTracer, recordingSpan } from './active-tracer.js';
import { recordFailure } from './span-helpers.js';

/** One node: its span (when traced) and its start, for the per-node latency histogram. */
class NodeObservation implements WorkflowNodeObservation {
  private readonly started = performance.now();
  private attempts = 0;

  constructor(
    private readonly workflow: string,
    private readonly id: string,
    private readonly metrics: ServingMetrics | undefined,
    private readonly span: Span | undefined,
    private readonly tracer: Tracer | undefined,
  ) {}

  within<T>(work: () => T): T {
    if (this.span === undefined || this.tracer === undefined) return work();
    return context.with(contextWithTracer(trace.setSpan(context.active(), this.span), this.tracer), work);
  }

  attempt(): void {
    this.attempts += 1;
  }

  calls(count: number): void {
    this.span?.setAttribute(ATTR.workflowForEachSize, count);
  }

  ended(status: ObservedNodeStatus, reason?: string, error?: unknown): void {
    this.metrics?.workflowNodeCompleted({ workflow: this.workflow, node: this.id, status, latencyUs: (performance.now() - this.started) * 1000 });
    const span = this.span;
    if (span === undefined) return;
    span.setAttributes({
      [ATTR.workflowNodeStatus]: status,
      [ATTR.workflowNodeAttempts]: this.attempts,
      [ATTR.workflowNodeSkipped]: status === 'skipped',
      [ATTR.workflowNodeFailed]: status === 'failed' || error !== undefined,
      ...(reason !== undefined ? { [ATTR.workflowNodeReason]: reason } : {}),
    });
    if (status === 'failed') recordFailure(span, error ?? new Error(reason ?? 'the node failed'));
    else if (error instanceof Error) span.recordException(error);
    span.end();
  }
}

function runObservation(workflow: string, depth: number, metrics: ServingMetrics | undefined): WorkflowRunObservation {
  const tracer = activeTracer();
  const parent = recordingSpan() === undefined ? undefined : context.active();
  const runSpan =
    tracer !== undefined && parent !== undefined
      ? tracer.startSpan(SPAN.workflowRun, { attributes: { [ATTR.workflow]: workflow, [ATTR.workflowDepth]: depth } }, parent)
      : undefined;
  const runContext = runSpan !== undefined && parent !== undefined ? trace.setSpan(parent, runSpan) : undefined;
  return {
    node(id: string, kind: string): WorkflowNodeObservation {
      const span =
        tracer !== undefined && runContext !== undefined
          ? tracer.startSpan(
              `${SPAN.workflowNode} ${id}`,
              { attributes: { [ATTR.workflow]: workflow, [ATTR.workflowNodeId]: id, [ATTR.workflowNodeKind]: kind } },
              runContext,
            )
          : undefined;
      return new NodeObservation(workflow, id, metrics, span, tracer);
    },
    ended(error: Error | undefined): void {
      if (runSpan === undefined) return;
      if (error !== undefined) recordFailure(runSpan, error);
      runSpan.end();
    },
  };
}

/**
 * Observes workflow runs: a `workflow.run` span per run (sub-workflows nest under the node that runs
 * them) with one child span per node (id, kind, attempts, `forEach` size, skipped/failed), and the
 * per-node latency histogram. Spans exist only inside a sampled request; metrics are always recorded.
 */
export function createWorkflowObserver(metrics: ServingMetrics | undefined): WorkflowObserver {
  return {
    runStarted(workflow: string, depth: number): WorkflowRunObservation {
      return runObservation(workflow, depth, metrics);
    },
  };
}
