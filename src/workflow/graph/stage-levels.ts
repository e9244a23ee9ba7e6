import type { Graph } from './graph.js';

/**
 * Groups nodes into stages of work that can run in parallel: a node's stage is one more than the
 * latest stage among its dependencies (0 for nodes that depend on nothing). `order` must be a
 * topological order of `dependencies`; each stage keeps that order.
 */
export function stageLevels(order: readonly string[], dependencies: Graph): string[][] {
  const level = new Map<string, number>();
  const stages: string[][] = [];
  for (const id of order) {
    const mine = Math.max(-1, ...(dependencies.get(id) ?? []).map((dep) => level.get(dep) ?? -1)) + 1;
    level.set(id, mine);
    (stages[mine] ??= []).push(id);
  }
  return stages;
}
