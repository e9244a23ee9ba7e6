import { trace, type Context, type Span } from '@opentelemetry/api';
import type { NodeEndEvent, ObservedNodeStatus, WorkflowNodeObservation, WorkflowObserver, WorkflowRunObservation } from '../../workflow/index.js';
import type { ServingMetrics } from '../metrics/serving-metrics.js';
import { ATTR, SPAN } from '../telemetry-names.js';
import { recordingSpanOf, tracerOf } from './trace-context.js';
import { recordFailure } from './span-helpers.js';

/** One node: its span (when traced) and its start, for the per-node latency histogram. */
class NodeObservation implements WorkflowNodeObservation {
  private readonly started = performance.now();
  private attempts = 0;
  readonly traceContext: Context | undefined;

  constructor(
    private readonly workflow: string,
    private readonly id: string,
    private readonly metrics: ServingMetrics | undefined,
    private readonly span: Span | undefined,
    runContext: Context | undefined,
    private readonly nodeEnded: ((event: NodeEndEvent) => void) | undefined,
  ) {
    // The run's context carries the server's tracer; the node's adds its span.
    this.traceContext = span !== undefined && runContext !== undefined ? trace.setSpan(runContext, span) : undefined;
  }

  attempt(): void {
    this.attempts += 1;
  }

  calls(count: number): void {
    this.span?.setAttribute(ATTR.workflowForEachSize, count);
  }

  ended(status: ObservedNodeStatus, reason?: string, error?: unknown): void {
    const latencyUs = (performance.now() - this.started) * 1000;
    this.metrics?.workflowNodeCompleted({ workflow: this.workflow, node: this.id, status, latencyUs });
    this.nodeEnded?.({
      workflow: this.workflow,
      node: this.id,
      status: status === 'ok' || status === 'fallback' ? 'succeeded' : status === 'skipped' ? 'skipped' : 'failed',
      attempts: this.attempts,
      durationMs: latencyUs / 1000,
    });
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

function runObservation(
  workflow: string,
  depth: number,
  metrics: ServingMetrics | undefined,
  caller: Context | undefined,
  nodeEnded: ((event: NodeEndEvent) => void) | undefined,
): WorkflowRunObservation {
  const tracer = tracerOf(caller);
  const parent = recordingSpanOf(caller) === undefined ? undefined : caller;
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
      return new NodeObservation(workflow, id, metrics, span, runContext, nodeEnded);
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
 * per-node latency histogram. Spans exist only when the run's parent context is sampled; metrics are
 * always recorded. `nodeEnded` hears how each node ended (the plugins' `onWorkflowNodeEnd` hook).
 */
export function createWorkflowObserver(metrics: ServingMetrics | undefined, nodeEnded?: (event: NodeEndEvent) => void): WorkflowObserver {
  return {
    runStarted(workflow: string, depth: number, parent: Context | undefined): WorkflowRunObservation {
      return runObservation(workflow, depth, metrics, parent, nodeEnded);
    },
  };
}
