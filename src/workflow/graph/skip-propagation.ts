import type { Graph } from './graph.js';

/**
 * The skip rule for one node: it is skipped without running when it takes values from at least one node
 * and every such node was skipped. Request inputs and literals are not nodes and do not count; nor do
 * nodes only its `when` looks at, so that a condition can react to a skipped node.
 */
export function skippedByUpstream(dependencies: readonly string[], isSkipped: (id: string) => boolean): boolean {
  return dependencies.length > 0 && dependencies.every(isSkipped);
}

/**
 * Applies {@link skippedByUpstream} over a whole graph: given the nodes skipped on their own account (a
 * false `when`, a failure with `onError: skip`), the full set of skipped nodes. `order` must be a
 * topological order of `dependencies` (the value dependencies of each node).
 */
export function propagateSkips(order: readonly string[], dependencies: Graph, skippedOnTheirOwn: ReadonlySet<string>): Set<string> {
  const skipped = new Set<string>();
  for (const id of order) {
    if (skippedOnTheirOwn.has(id) || skippedByUpstream(dependencies.get(id) ?? [], (dep) => skipped.has(dep))) skipped.add(id);
  }
  return skipped;
}
