import type { Context } from '@opentelemetry/api';
import { SluiceError } from '../../sdk/errors/index.js';
import type { Tensor } from '../../sdk/tensor/index.js';
import { MAX_WORKFLOW_DEPTH } from '../definition/nesting-limit.js';
import type { WorkflowNode } from '../definition/workflow-definition.js';
import type { WorkflowPlan } from '../planner/workflow-plan.js';
import { modelInputTensor } from '../values/model-input-tensor.js';
import type { WorkflowServices } from './workflow-services.js';

/** What one call of a node needs from its run. */
export interface CallContext {
  readonly workflow: string;
  readonly services: WorkflowServices;
  readonly depth: number;
  /** The trace context of the node making the call, handed on to what it calls; absent when not traced. */
  readonly traceContext?: Context | undefined;
  /** The request's priority level, handed to every model call; absent when it gave none. */
  readonly priority?: number | undefined;
  /**
   * Runs a sub-workflow for node `node` with inputs already bound, under `parent`; resolves with its
   * outputs. `index` is the call's place in the node's `forEach` list, when it is one of its calls.
   */
  readonly runSubWorkflow: (
    node: string,
    plan: WorkflowPlan,
    inputs: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
    parent: Context | undefined,
    index: number | undefined,
  ) => Promise<Readonly<Record<string, unknown>>>;
}

type Outputs = Readonly<Record<string, unknown>>;

async function callModel(node: WorkflowNode, model: string, version: string | undefined, inputs: Outputs, signal: AbortSignal, context: CallContext): Promise<Outputs> {
  const tensors: Record<string, Tensor> = {};
  for (const port of node.ports.inputs) {
    const value = inputs[port.name];
    if (value === undefined) {
      // What the node's sources gave is settled: another attempt would find the input just as empty.
      throw new SluiceError('SLUICE_TENSOR_MISSING_INPUT', `input \`${port.name}\` has no value: every source it reads was skipped or gave nothing`, {
        input: port.name,
      });
    }
    if (port.datatype === undefined || port.shape === undefined) throw new Error(`input \`${port.name}\` has no tensor spec`);
    tensors[port.name] = modelInputTensor(value, { name: port.name, datatype: port.datatype, shape: port.shape }, `input \`${port.name}\``);
  }
  const trace = context.traceContext;
  const outputs = await context.services.models.infer({
    workflow: context.workflow,
    node: node.id,
    model,
    version,
    inputs: tensors,
    signal,
    ...(context.priority !== undefined ? { priority: context.priority } : {}),
    ...(trace !== undefined ? { traceContext: trace } : {}),
  });
  const missing = node.ports.outputs.filter((port) => outputs[port.name] === undefined).map((port) => port.name);
  if (missing.length > 0) throw new Error(`the model returned no output ${missing.map((name) => `\`${name}\``).join(', ')}`);
  return outputs;
}

async function callHandler(node: WorkflowNode, name: string, inputs: Outputs, signal: AbortSignal, context: CallContext): Promise<Outputs> {
  const handler = context.services.handler(name);
  if (handler === undefined) throw new Error(`handler \`${name}\` is not registered`);
  // Typed as the contract promises, but a plugin's JavaScript may answer anything.
  const outputs: unknown = await handler.run(inputs, {
    workflow: context.workflow,
    node: node.id,
    logger: context.services.logger.child({ workflow: context.workflow, node: node.id }),
    signal,
    config: context.services.handlerConfig?.(name) ?? {},
    ...(context.traceContext !== undefined ? { traceContext: context.traceContext } : {}),
  });
  // `null` is an object too: taken for a mapping, it would fail whatever reads it later, outside the node.
  if (typeof outputs !== 'object' || outputs === null || Array.isArray(outputs)) throw new Error('the handler returned no outputs mapping');
  return outputs as Outputs;
}

async function callWorkflow(node: WorkflowNode, name: string, inputs: Outputs, signal: AbortSignal, context: CallContext, index: number | undefined): Promise<Outputs> {
  if (context.depth >= MAX_WORKFLOW_DEPTH) {
    // Another attempt would nest just as deep: the error is one retries leave alone.
    throw new SluiceError(
      'SLUICE_WORKFLOW_INVALID',
      `sub-workflows nest more than ${MAX_WORKFLOW_DEPTH} levels deep; make the chain of workflow nodes shorter`,
      { workflow: name, maxDepth: MAX_WORKFLOW_DEPTH },
    );
  }
  const plan = context.services.workflow(name);
  if (plan === undefined) {
    throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `workflow \`${name}\` is not registered`, { workflow: name });
  }
  return context.runSubWorkflow(node.id, plan, inputs, signal, context.traceContext, index);
}

/**
 * Makes one call of a node — the whole node, or one element of a `forEach` — with its inputs bound:
 * a model call through the model caller (JSON inputs made into tensors by the model's input specs), a
 * handler run, or a sub-workflow run. Resolves with the call's outputs by name. `index` is the call's
 * place in a `forEach` list.
 */
export function callTarget(node: WorkflowNode, inputs: Outputs, signal: AbortSignal, context: CallContext, index?: number): Promise<Outputs> {
  const target = node.target;
  switch (target.kind) {
    case 'model':
      return callModel(node, target.model, target.version, inputs, signal, context);
    case 'handler':
      return callHandler(node, target.handler, inputs, signal, context);
    case 'workflow':
      return callWorkflow(node, target.workflow, inputs, signal, context, index);
  }
}
