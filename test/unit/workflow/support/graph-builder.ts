import type { Graph } from '../../../../src/workflow/graph/graph.js';

/**
 * Builds a dependency graph fluently, in the order a test's diagram reads: `node('c', 'a', 'b')` adds
 * `c`, which depends on `a` and `b`. Nodes named only as dependencies are added too.
 */
export class GraphBuilder {
  private readonly deps = new Map<string, string[]>();

  node(id: string, ...dependsOn: string[]): this {
    this.deps.set(id, [...(this.deps.get(id) ?? []), ...dependsOn]);
    for (const dep of dependsOn) if (!this.deps.has(dep)) this.deps.set(dep, []);
    return this;
  }

  /** Node → the nodes it depends on. */
  dependencies(): Graph {
    return new Map(this.deps);
  }
}

/** Starts a {@link GraphBuilder}. */
export function dag(): GraphBuilder {
  return new GraphBuilder();
}
