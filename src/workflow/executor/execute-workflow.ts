import type { Context } from '@opentelemetry/api';
import { RequestBudget, signalCancellation } from '../../budget/request-budget.js';
import type { WorkflowValue } from '../../sdk/index.js';
import type { WorkflowPlan } from '../planner/workflow-plan.js';
import type { CallContext } from './call-target.js';
import type { ExecuteOptions, NodeProgressConsumer, ProgressConsumer, WorkflowClock, WorkflowObserver, WorkflowResult } from './execute-options.js';
import { checkRequestInputs } from './request-inputs.js';
import { runDeadline } from './run-deadline.js';
import { RunTrace } from './run-trace.js';
import { SYSTEM_CLOCK } from './system-clock.js';
import { WorkflowRun } from './workflow-run.js';
import type { WorkflowServices } from './workflow-services.js';

interface RunOptions {
  /** What the request may spend; a sub-workflow run's is its node's cancellation and the request's priority. */
  readonly budget: RequestBudget | undefined;
  /** The longest a run of a workflow whose file sets no `responseTimeoutMs` may take. */
  readonly defaultResponseTimeoutMs: number | undefined;
  readonly debug: boolean;
  readonly clock: WorkflowClock;
  readonly depth: number;
  readonly observer: WorkflowObserver | undefined;
  /** The request's trace context, or the node's that runs this run as a sub-workflow. */
  readonly traceContext: Context | undefined;
  readonly onProgress: ProgressConsumer | undefined;
  readonly onNodeProgress: NodeProgressConsumer | undefined;
  /** Whether sub-workflow runs tell {@link onNodeProgress} of their nodes too. */
  readonly nestedNodeProgress: boolean;
}

/**
 * What a sub-workflow run tells of its nodes: the caller's consumer, with each node named by the path to
 * it from the calling run (`path` is the workflow node's id, `line[2]` for the third call of a `forEach`
 * node): `outer.inner`, `outer.inner.deeper` a level further down, `line[2].read`.
 */
function nestedNodeProgress(path: string, consumer: NodeProgressConsumer | undefined): NodeProgressConsumer | undefined {
  if (consumer === undefined) return undefined;
  return (progress) => consumer({ ...progress, node: `${path}.${progress.node}` });
}

async function runPlan(plan: WorkflowPlan, request: Readonly<Record<string, unknown>>, services: WorkflowServices, options: RunOptions): Promise<WorkflowResult> {
  const inputs = checkRequestInputs(plan.workflow, request);
  const trace = new RunTrace(plan.workflow.name, plan.order, options.clock);
  const context: CallContext & { readonly clock: WorkflowClock } = {
    workflow: plan.workflow.name,
    services,
    depth: options.depth,
    clock: options.clock,
    priority: options.budget?.priority,
    runSubWorkflow: async (node, subPlan, subInputs, signal, parent, index) => {
      // The request's deadline is the parent run's to keep: it cancels the node, and so this run.
      const budget = RequestBudget.of({ priority: options.budget?.priority, cancellation: signalCancellation(signal) });
      const result = await runPlan(subPlan, subInputs, services, {
        ...options,
        budget,
        depth: options.depth + 1,
        traceContext: parent,
        onProgress: undefined,
        onNodeProgress: options.nestedNodeProgress ? nestedNodeProgress(index === undefined ? node : `${node}[${index}]`, options.onNodeProgress) : undefined,
      });
      if (result.debug !== undefined) trace.subWorkflow(node, result.debug);
      return result.outputs;
    },
  };
  const observation = options.observer?.runStarted(plan.workflow.name, options.depth, options.traceContext);
  const run = new WorkflowRun({
    plan,
    request: inputs,
    context,
    trace,
    signal: options.budget?.cancellation.watch(),
    deadline: runDeadline(plan.workflow.responseTimeoutMs, options.defaultResponseTimeoutMs, options.budget),
    observation,
    onProgress: options.onProgress,
    onNodeProgress: options.onNodeProgress,
  });
  let outputs;
  try {
    outputs = await run.run();
  } catch (error) {
    observation?.ended(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  observation?.ended(undefined);
  return options.debug ? { outputs, debug: trace.debug() } : { outputs };
}

/**
 * Runs a planned workflow for one request. The request's inputs are checked against the workflow's
 * `inputs:` first (`SLUICE_WORKFLOW_INPUT_INVALID`). Nodes run as soon as their inputs are ready,
 * independent branches in parallel, each attempt bounded by its `timeoutMs` and retried by its `retry`;
 * a failure follows the node's `onError`. Each run (a sub-workflow's too) is bounded by its workflow's
 * `responseTimeoutMs`, or `options.defaultResponseTimeoutMs` when the file sets none, and the request's
 * by its budget as well (the earlier of its hard deadline and its own timeout), whichever passes first
 * (`SLUICE_WORKFLOW_DEADLINE_EXCEEDED`); and by the budget's cancellation (`SLUICE_WORKFLOW_CANCELLED`). Either cancels the nodes still running and starts no
 * further attempt. A failing node fails the run with an error that names it
 * (`SLUICE_WORKFLOW_NODE_FAILED`, `SLUICE_WORKFLOW_NODE_TIMEOUT`, or the cause's own code when a client
 * can act on it).
 */
export function executeWorkflow(
  plan: WorkflowPlan,
  request: Readonly<Record<string, WorkflowValue>>,
  services: WorkflowServices,
  options: ExecuteOptions = {},
): Promise<WorkflowResult> {
  return runPlan(plan, request, services, {
    budget: options.budget,
    defaultResponseTimeoutMs: options.defaultResponseTimeoutMs,
    debug: options.debug === true,
    clock: options.clock ?? SYSTEM_CLOCK,
    depth: 0,
    observer: options.observer,
    traceContext: options.traceContext,
    onProgress: options.onProgress,
    onNodeProgress: options.onNodeProgress,
    nestedNodeProgress: options.nestedNodeProgress === true,
  });
}
