import type { Context } from '@opentelemetry/api';
import type { RequestBudget } from '../../budget/request-budget.js';
import { loggerWithTrace } from '../../telemetry/logging/trace-log-fields.js';
import { checkRequestInputs, executeWorkflow, type WorkflowNodeProgress, type WorkflowObserver, type WorkflowProgress, type WorkflowResult, type WorkflowServices } from '../index.js';
import type { RegisteredWorkflow, WorkflowRegistry } from './workflow-registry.js';

/** How one workflow run is bounded and observed. */
export interface WorkflowRunOptions {
  readonly debug?: boolean;
  /**
   * What the request may spend: its cancellation (the client going away, the server stopping) cancels
   * the run, the earlier of its hard deadline and its own timeout ends it, and its priority goes with
   * every model call of the run.
   */
  readonly budget?: RequestBudget;
  /** Told of each finished `forEach` call while the run goes on (streaming APIs). */
  readonly onProgress?: (progress: WorkflowProgress) => void;
  /** Told of each node as it settles while the run goes on (streaming APIs asked for every node). */
  readonly onNodeProgress?: (progress: WorkflowNodeProgress) => void;
  /** Tell {@link onNodeProgress} of the nodes inside sub-workflows too, named by their path (`outer.inner`). */
  readonly nestedNodeProgress?: boolean;
  /** The request's trace context: the run's spans are its children, and its log lines carry its trace. */
  readonly traceContext?: Context;
}

/** A finished run and the workflow that ran it. */
export interface WorkflowAnswer {
  readonly workflow: RegisteredWorkflow;
  readonly result: WorkflowResult;
}

/**
 * Runs registered workflows: checks the request's inputs, then executes the plan registered now. A run is
 * bounded by its workflow's `responseTimeoutMs`, else by `defaultResponseTimeoutMs` (the server's
 * `responseTimeoutMs`), and by the request's budget, whichever passes first.
 */
export class WorkflowService {
  constructor(
    private readonly registry: WorkflowRegistry,
    private readonly services: WorkflowServices,
    /** Tracing and metrics of runs and nodes. */
    private readonly observer?: WorkflowObserver,
    private readonly defaultResponseTimeoutMs?: number,
  ) {}

  /** Runs workflow `name` on `request` (input name → value). */
  async run(name: string, request: Readonly<Record<string, unknown>>, options: WorkflowRunOptions = {}): Promise<WorkflowAnswer> {
    // The entry is read once: a re-registration during the run does not change the plan it runs.
    const workflow = this.registry.get(name);
    const inputs = checkRequestInputs(workflow.plan.workflow, request);
    const local = workflow.localHandlers;
    const trace = options.traceContext;
    let services: WorkflowServices = local ? { ...this.services, handler: (n) => local.get(n) ?? this.services.handler(n) } : this.services;
    // Lines the run logs (node failures, node handlers) carry the request's trace.
    if (trace !== undefined) services = { ...services, logger: loggerWithTrace(services.logger, trace) };
    const result = await executeWorkflow(workflow.plan, inputs, services, {
      ...(options.debug !== undefined ? { debug: options.debug } : {}),
      ...(options.budget !== undefined ? { budget: options.budget } : {}),
      ...(this.defaultResponseTimeoutMs !== undefined ? { defaultResponseTimeoutMs: this.defaultResponseTimeoutMs } : {}),
      ...(this.observer ? { observer: this.observer } : {}),
      ...(trace !== undefined ? { traceContext: trace } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.onNodeProgress ? { onNodeProgress: options.onNodeProgress } : {}),
      ...(options.nestedNodeProgress === true ? { nestedNodeProgress: true } : {}),
    });
    return { workflow, result };
  }
}
