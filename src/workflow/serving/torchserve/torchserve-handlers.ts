import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SluiceError } from '../../../sdk/errors/index.js';
import { RequestBudget, signalCancellation } from '../../../budget/request-budget.js';
import type { NodeHandler, NodeHandlerContext, WorkflowValue } from '../../../sdk/node-handler/node-handler.js';
import type { InferenceService } from '../../../serving/inference-service.js';
import { convertedHandlerName, convertedNodeInputs } from './torchserve-conversion.js';
import type { TorchServeSpec } from './torchserve-spec.js';

/** A function node of a TorchServe spec, as its module exports it. */
type SpecFunction = (input: WorkflowValue, context: NodeHandlerContext) => unknown;


/** The value a TorchServe node sees: its one input, or the object of its parents' results. */
function nodeInput(inputs: Readonly<Record<string, WorkflowValue>>, names: readonly string[]): WorkflowValue {
  return names.length === 1 && names[0] === 'body' ? inputs['body'] : { ...inputs };
}

/**
 * A model node: the model is called the way `/predictions` calls it, through its handler, with the node's
 * input as the request body (raw bytes stay bytes, anything else is JSON).
 */
function modelNodeHandler(workflow: string, spec: TorchServeSpec, node: string, model: string, inference: InferenceService): NodeHandler {
  const names = convertedNodeInputs(spec, node);
  return {
    name: convertedHandlerName(workflow, node),
    inputs: names,
    outputs: { result: { description: `the answer of model ${model}` } },
    async run(inputs, context) {
      const body = nodeInput(inputs, names);
      const answer = await inference.predict({
        model,
        request: { body, contentType: body instanceof Uint8Array ? 'application/octet-stream' : 'application/json' },
        // The node's signal aborts when its attempt times out or its run ends.
        budget: RequestBudget.of({ cancellation: signalCancellation(context.signal) }),
        gather: true,
        api: 'workflow',
        ...(context.traceContext !== undefined ? { traceContext: context.traceContext } : {}),
      });
      return { result: answer.result };
    },
  };
}

/** A function node: the export of the spec's handler module named after the node. */
function functionNodeHandler(workflow: string, spec: TorchServeSpec, node: string, fn: SpecFunction): NodeHandler {
  const names = convertedNodeInputs(spec, node);
  return {
    name: convertedHandlerName(workflow, node),
    inputs: names,
    outputs: { result: {} },
    async run(inputs, context) {
      return { result: await fn(nodeInput(inputs, names), context) };
    },
  };
}

/** Imports the spec's handler module (a file in the workflow store). */
async function importHandlerModule(path: string | undefined, functionNodes: readonly string[], file: string): Promise<Record<string, unknown>> {
  if (functionNodes.length === 0) return {};
  if (path === undefined) {
    throw new SluiceError(
      'SLUICE_WORKFLOW_INVALID',
      `${file}: the dag has function nodes (${functionNodes.join(', ')}) but no handler module was given; register with handler=<module in the workflow store>`,
    );
  }
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new SluiceError('SLUICE_WORKFLOW_INVALID', `${file}: the handler module ${basename(path)} could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The node handlers of a converted TorchServe spec: one per model node (calling the model registered
 * for it) and one per function node (calling the module's export of that name).
 */
export async function torchServeHandlers(options: {
  readonly workflow: string;
  readonly spec: TorchServeSpec;
  readonly file: string;
  /** Model node → registered model name. */
  readonly models: ReadonlyMap<string, string>;
  readonly handlerModule: string | undefined;
  readonly inference: InferenceService;
}): Promise<Map<string, NodeHandler>> {
  const { workflow, spec, file } = options;
  const functionNodes = spec.nodes.filter((n) => !options.models.has(n));
  const module = await importHandlerModule(options.handlerModule, functionNodes, file);
  const handlers = new Map<string, NodeHandler>();
  for (const node of spec.nodes) {
    const model = options.models.get(node);
    let handler: NodeHandler;
    if (model !== undefined) {
      handler = modelNodeHandler(workflow, spec, node, model, options.inference);
    } else {
      const fn = module[node];
      if (typeof fn !== 'function') {
        throw new SluiceError(
          'SLUICE_WORKFLOW_INVALID',
          `${file}: node \`${node}\` is neither a model of the spec nor a function exported by the handler module; export a function named ${node}`,
        );
      }
      handler = functionNodeHandler(workflow, spec, node, fn as SpecFunction);
    }
    handlers.set(handler.name, handler);
  }
  return handlers;
}
