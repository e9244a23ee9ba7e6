import type { NodeStatus, NodeTrace, WorkflowClock, WorkflowDebug } from './execute-options.js';

interface MutableTrace {
  status: NodeStatus;
  startMs?: number;
  durationMs?: number;
  attempts: number;
  calls?: number;
  reason?: string;
  workflow?: WorkflowDebug;
}

/** Records what happens to each node of one run, for debug results. */
export class RunTrace {
  private readonly started: number;
  private readonly traces = new Map<string, MutableTrace>();
  private readonly skippedOrder: string[] = [];

  constructor(
    private readonly workflow: string,
    nodeIds: readonly string[],
    private readonly clock: WorkflowClock,
  ) {
    this.started = clock.now();
    for (const id of nodeIds) this.traces.set(id, { status: 'not-run', attempts: 0 });
  }

  start(id: string): void {
    const trace = this.trace(id);
    trace.startMs = this.clock.now() - this.started;
    trace.status = 'cancelled';
  }

  attempt(id: string): void {
    this.trace(id).attempts += 1;
  }

  calls(id: string, count: number): void {
    this.trace(id).calls = count;
  }

  subWorkflow(id: string, debug: WorkflowDebug): void {
    this.trace(id).workflow = debug;
  }

  finish(id: string, status: 'ok' | 'fallback' | 'skipped' | 'failed', reason?: string): void {
    const trace = this.trace(id);
    trace.status = status;
    if (trace.startMs !== undefined) trace.durationMs = this.clock.now() - this.started - trace.startMs;
    if (reason !== undefined) trace.reason = reason;
    if (status === 'skipped') this.skippedOrder.push(id);
  }

  /** The debug result; nodes still running show as `cancelled`, those never started as `not-run`. */
  debug(): WorkflowDebug {
    const nodes: Record<string, NodeTrace> = {};
    for (const [id, trace] of this.traces) nodes[id] = { ...trace };
    return { workflow: this.workflow, totalMs: this.clock.now() - this.started, nodes, skipped: [...this.skippedOrder] };
  }

  private trace(id: string): MutableTrace {
    let trace = this.traces.get(id);
    if (trace === undefined) {
      trace = { status: 'not-run', attempts: 0 };
      this.traces.set(id, trace);
    }
    return trace;
  }
}
