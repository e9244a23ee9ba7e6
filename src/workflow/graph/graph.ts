/**
 * A directed graph as adjacency lists: node id → the ids its edges lead to. Every id an edge leads to
 * is a key too. Which way edges point (to dependencies or to dependents) is up to the caller.
 */
export type Graph = ReadonlyMap<string, readonly string[]>;

/** The same graph with every edge reversed; keys keep their order. */
export function reverseGraph(graph: Graph): Graph {
  const reversed = new Map<string, string[]>([...graph.keys()].map((id) => [id, []]));
  for (const [from, targets] of graph) {
    for (const to of targets) reversed.get(to)?.push(from);
  }
  return reversed;
}
