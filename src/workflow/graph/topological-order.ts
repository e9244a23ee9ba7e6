import type { Graph } from './graph.js';

/**
 * Orders the nodes so that each comes after everything it depends on (Kahn's algorithm), keeping the
 * graph's key order among nodes that are free at the same time. `dependencies` maps each node to the
 * nodes it depends on. Returns undefined when the graph has a cycle.
 */
export function topologicalOrder(dependencies: Graph): string[] | undefined {
  const waiting = new Map([...dependencies].map(([id, deps]) => [id, new Set(deps).size]));
  const dependents = new Map<string, string[]>([...dependencies.keys()].map((id) => [id, []]));
  for (const [id, deps] of dependencies) for (const dep of new Set(deps)) dependents.get(dep)?.push(id);
  const order: string[] = [];
  const ready = [...dependencies.keys()].filter((id) => waiting.get(id) === 0);
  while (ready.length > 0) {
    const id = ready.shift() as string;
    order.push(id);
    for (const dependent of dependents.get(id) ?? []) {
      const left = (waiting.get(dependent) ?? 0) - 1;
      waiting.set(dependent, left);
      if (left === 0) ready.push(dependent);
    }
  }
  return order.length === dependencies.size ? order : undefined;
}
