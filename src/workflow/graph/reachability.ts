import type { Graph } from './graph.js';

/** Every node reachable from `starts` along the edges of `graph`, the starts included. */
export function reachableFrom(starts: Iterable<string>, graph: Graph): Set<string> {
  const reached = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (reached.has(id)) continue;
    reached.add(id);
    for (const next of graph.get(id) ?? []) if (!reached.has(next)) stack.push(next);
  }
  return reached;
}
