import type { Graph } from '../graph/graph.js';
import { nodeDependencies } from '../definition/node-dependencies.js';
import type { ValidationContext } from './validation-context.js';

/** The dependency graph of the draft's readable nodes (edges to nodes that do not exist are dropped). */
export function draftDependencies(context: ValidationContext): Graph {
  const { nodes } = context.draft;
  return new Map(
    [...nodes.values()].map((node) => {
      const when = context.conditions.get(node.id);
      const reads = { inputs: node.inputs, ...(node.forEach !== undefined && { forEach: node.forEach }), ...(when !== undefined && { when }) };
      const deps = nodeDependencies(reads).filter((id) => nodes.has(id));
      return [node.id, deps];
    }),
  );
}
