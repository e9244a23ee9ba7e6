import type { ModelDescription } from '../../sdk/index.js';
import type { NodePorts } from '../definition/node-ports.js';
import type { NodeTarget } from '../definition/node-target.js';
import { suggestName } from '../problems/did-you-mean.js';
import { childPointer } from '../problems/json-pointer.js';
import type { ValidationContext } from './validation-context.js';
import type { HandlerDescription, WorkflowCatalog, WorkflowSignature } from './workflow-catalog.js';

function modelPorts(model: ModelDescription): NodePorts {
  return {
    inputs: model.inputs.map((spec) => ({ name: spec.name, datatype: spec.datatype, shape: spec.shape, required: true })),
    outputs: model.outputs.map((spec) => ({ name: spec.name, datatype: spec.datatype, shape: spec.shape, list: false, required: true })),
  };
}

function handlerPorts(handler: HandlerDescription): NodePorts {
  return {
    inputs: handler.inputs.map((name) => ({ name, required: true })),
    outputs: Object.entries(handler.outputs).map(([name, output]) => ({ name, list: output.list === true, required: true })),
  };
}

function workflowPorts(signature: WorkflowSignature): NodePorts {
  return {
    inputs: Object.entries(signature.inputs).map(([name, spec]) => ({
      name,
      ...(spec.datatype !== undefined && { datatype: spec.datatype }),
      ...(spec.shape !== undefined && { shape: spec.shape }),
      required: !spec.optional,
    })),
    outputs: signature.outputs.map((name) => ({ name, required: true })),
  };
}

/**
 * The chain of registered workflows by which `from` calls `name` (`[from, …, name]`), or undefined when
 * it does not; each workflow is looked at once.
 */
function callPathTo(catalog: WorkflowCatalog, from: string, name: string): string[] | undefined {
  const seen = new Set<string>([from]);
  const stack: string[][] = [[from]];
  while (stack.length > 0) {
    const path = stack.pop() ?? [];
    for (const next of catalog.workflow(path.at(-1) ?? '')?.calls ?? []) {
      if (next === name) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push([...path, next]);
    }
  }
  return undefined;
}

function resolve(context: ValidationContext, target: NodeTarget, at: string): NodePorts | undefined {
  const { catalog, problems } = context;
  switch (target.kind) {
    case 'model': {
      const modelAt = childPointer(at, 'model');
      const model = catalog.model(target.model, target.version);
      if (model !== undefined) return modelPorts(model);
      const versions = catalog.modelVersions(target.model);
      if (versions.length > 0 && target.version !== undefined) {
        problems.error(modelAt, `model \`${target.model}\` has no version \`${target.version}\``, `its versions: ${versions.join(', ')}`);
      } else {
        problems.error(modelAt, `unknown model \`${target.model}\``, suggestName(target.model, catalog.modelNames(), 'models'));
      }
      return undefined;
    }
    case 'handler': {
      const handler = catalog.handler(target.handler);
      if (handler !== undefined) return handlerPorts(handler);
      problems.error(childPointer(at, 'handler'), `unknown handler \`${target.handler}\``, suggestName(target.handler, catalog.handlerNames(), 'handlers'));
      return undefined;
    }
    case 'workflow': {
      if (target.workflow === context.draft.name) {
        problems.error(childPointer(at, 'workflow'), `the workflow calls itself`, 'a workflow node must name another workflow');
        return undefined;
      }
      const signature = catalog.workflow(target.workflow);
      const loop = signature === undefined ? undefined : callPathTo(catalog, target.workflow, context.draft.name);
      if (loop !== undefined) {
        problems.error(
          childPointer(at, 'workflow'),
          `the workflow calls itself through workflow \`${target.workflow}\`: ${[context.draft.name, ...loop].join(' → ')}`,
          'a workflow cannot call itself, not even through other workflows; remove the workflow node that closes the loop',
        );
        return undefined;
      }
      if (signature !== undefined) return workflowPorts(signature);
      problems.error(childPointer(at, 'workflow'), `unknown workflow \`${target.workflow}\``, suggestName(target.workflow, catalog.workflowNames(), 'workflows'));
      return undefined;
    }
  }
}

/** Looks every node's model, handler or workflow up in the catalog and records its ports. */
export function resolveTargets(context: ValidationContext): void {
  for (const node of context.draft.nodes.values()) {
    const ports = resolve(context, node.target, node.at);
    if (ports !== undefined) context.ports.set(node.id, ports);
  }
}
