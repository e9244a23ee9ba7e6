import type { Context } from '@opentelemetry/api';
import type { WorkflowValue } from '../../plugins/sdk/index.js';
import type { WorkflowPlan } from '../planner/workflow-plan.js';
import type { CallContext } from './call-target.js';
import type { ExecuteOptions, WorkflowClock, WorkflowObserver, WorkflowProgress, WorkflowResult } from './execute-options.js';
import { checkRequestInputs } from './request-inputs.js';
import { RunTrace } from './run-trace.js';
import { SYSTEM_CLOCK } from './system-clock.js';
import { WorkflowRun } from './workflow-run.js';
import type { WorkflowServices } from './workflow-services.js';

interface RunOptions {
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  readonly debug: boolean;
  readonly clock: WorkflowClock;
  readonly depth: number;
  readonly observer: WorkflowObserver | undefined;
  /** The request's trace context, or the node's that runs this run as a sub-workflow. */
  readonly traceContext: Context | undefined;
  readonly onProgress: ((progress: WorkflowProgress) => void) | undefined;
}

async function runPlan(plan: WorkflowPlan, request: Readonly<Record<string, unknown>>, services: WorkflowServices, options: RunOptions): Promise<WorkflowResult> {
  const inputs = checkRequestInputs(plan.workflow, request);
  const trace = new RunTrace(plan.workflow.name, plan.order, options.clock);
  const context: CallContext & { readonly clock: WorkflowClock } = {
    workflow: plan.workflow.name,
    services,
    depth: options.depth,
    clock: options.clock,
    runSubWorkflow: async (node, subPlan, subInputs, signal, parent) => {
      const result = await runPlan(subPlan, subInputs, services, {
        ...options,
        signal,
        timeoutMs: undefined,
        depth: options.depth + 1,
        traceContext: parent,
        onProgress: undefined,
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
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    observation,
    onProgress: options.onProgress,
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
 * a failure follows the node's `onError`. The run is bounded by `options.timeoutMs`
 * (`SLUICE_WORKFLOW_DEADLINE_EXCEEDED`) and `options.signal` (`SLUICE_WORKFLOW_CANCELLED`), which cancel
 * the nodes still running. A failing node fails the run with an error that names it
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
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    debug: options.debug === true,
    clock: options.clock ?? SYSTEM_CLOCK,
    depth: 0,
    observer: options.observer,
    traceContext: options.traceContext,
    onProgress: options.onProgress,
  });
}
