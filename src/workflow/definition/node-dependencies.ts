import type { Condition } from './condition.js';
import type { Binding } from './value-source.js';

/** The parts of a node that read other nodes. */
export interface NodeReads {
  readonly inputs: Readonly<Record<string, Binding>>;
  readonly forEach?: Binding;
  readonly when?: Condition;
}

function bindingNodes(node: NodeReads): string[] {
  const bindings = [...Object.values(node.inputs), ...(node.forEach === undefined ? [] : [node.forEach])];
  return bindings.flatMap((binding) => binding.alternatives.flatMap((source) => (source.kind === 'node' ? [source.node] : [])));
}

/**
 * The ids of the nodes whose values a node takes in (inputs and `forEach`), each once, in order of
 * appearance. These decide skipping: a node all of whose value sources were skipped is skipped.
 */
export function nodeDataDependencies(node: NodeReads): string[] {
  return [...new Set(bindingNodes(node))];
}

/**
 * The ids of every node a node reads — its value sources and what its `when` looks at — each once, in
 * order of appearance. These decide order: a node starts after all of them have settled.
 */
export function nodeDependencies(node: NodeReads): string[] {
  const conditionNodes = (node.when?.references ?? []).flatMap((reference) => (reference.kind === 'node' ? [reference.node] : []));
  return [...new Set([...bindingNodes(node), ...conditionNodes])];
}
