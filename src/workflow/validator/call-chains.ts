import type { WorkflowCatalog } from './workflow-catalog.js';

type Chain = readonly string[];

/**
 * The longest chains of registered workflows around the workflow being validated, `name`: those that
 * call it, and those each workflow it calls goes on to call. The catalog's entry called `name` is the one
 * being replaced, so it is left out; a chain that comes back to `name` is a loop (reported on its own)
 * and ends there. Each workflow is looked at once.
 */
export class CallChains {
  private readonly down = new Map<string, Chain>();
  private readonly up = new Map<string, Chain>();
  private callersOf: Map<string, string[]> | undefined;

  constructor(
    private readonly catalog: WorkflowCatalog,
    private readonly name: string,
  ) {}

  /** The longest chain of registered workflows calling `name` one after the other, ending with `name`. */
  callers(): Chain {
    return this.longestTo(this.name, new Set());
  }

  /**
   * The longest chain of calls a run of registered workflow `workflow` makes, starting with `workflow`;
   * empty when it is not registered.
   */
  from(workflow: string): Chain {
    return this.longestFrom(workflow, new Set());
  }

  private longestFrom(workflow: string, onPath: Set<string>): Chain {
    const known = this.down.get(workflow);
    if (known !== undefined) return known;
    const signature = workflow === this.name ? undefined : this.catalog.workflow(workflow);
    if (signature === undefined || onPath.has(workflow)) return [];
    onPath.add(workflow);
    let longest: Chain = [];
    for (const next of signature.calls ?? []) {
      const chain = this.longestFrom(next, onPath);
      if (chain.length > longest.length) longest = chain;
    }
    onPath.delete(workflow);
    const chain = [workflow, ...longest];
    this.down.set(workflow, chain);
    return chain;
  }

  private longestTo(workflow: string, onPath: Set<string>): Chain {
    const known = this.up.get(workflow);
    if (known !== undefined) return known;
    if (onPath.has(workflow)) return [];
    onPath.add(workflow);
    let longest: Chain = [];
    for (const caller of this.callersIndex().get(workflow) ?? []) {
      const chain = this.longestTo(caller, onPath);
      if (chain.length > longest.length) longest = chain;
    }
    onPath.delete(workflow);
    const chain = [...longest, workflow];
    this.up.set(workflow, chain);
    return chain;
  }

  /** Registered workflow → the registered workflows whose nodes call it (without the one being replaced). */
  private callersIndex(): Map<string, string[]> {
    if (this.callersOf !== undefined) return this.callersOf;
    const index = new Map<string, string[]>();
    for (const caller of this.catalog.workflowNames()) {
      if (caller === this.name) continue;
      for (const called of this.catalog.workflow(caller)?.calls ?? []) {
        const list = index.get(called);
        if (list === undefined) index.set(called, [caller]);
        else list.push(caller);
      }
    }
    this.callersOf = index;
    return index;
  }
}
