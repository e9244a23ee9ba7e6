import type { Graph } from './graph.js';

/** Rotates a cycle (first node repeated at the end) to start at the node that comes first in `rank`. */
function rotated(cycle: readonly string[], rank: ReadonlyMap<string, number>): string[] {
  const ring = cycle.slice(0, -1);
  const first = ring.reduce((best, id) => ((rank.get(id) ?? 0) < (rank.get(best) ?? 0) ? id : best));
  const start = ring.indexOf(first);
  const path = [...ring.slice(start), ...ring.slice(0, start)];
  return [...path, first];
}

/**
 * Every cycle a depth-first search meets, one per back edge, each as the path around it with its first
 * node repeated at the end (`a, b, c, a`; a self-loop is `a, a`). Paths follow the edges of `graph` and
 * start at the cycle's node that comes first among the graph's keys, so the result is deterministic.
 * The search stops once it has found `limit` cycles: a dense graph has far more cycles than nodes.
 */
export function findCycles(graph: Graph, limit = Infinity): string[][] {
  const rank = new Map([...graph.keys()].map((id, index) => [id, index]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    state.set(id, 'open');
    path.push(id);
    for (const next of graph.get(id) ?? []) {
      if (cycles.length >= limit) break;
      const nextState = state.get(next);
      if (nextState === 'open') {
        const cycle = rotated([...path.slice(path.indexOf(next)), next], rank);
        const key = cycle.join('\u0000');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (nextState === undefined) {
        visit(next);
      }
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const id of graph.keys()) if (!state.has(id) && cycles.length < limit) visit(id);
  return cycles;
}
