/** A node as a test writes it: the same keys as in a workflow file. */
export type NodeSpec = Readonly<Record<string, unknown>>;

/**
 * Builds a workflow document fluently, for tests that draw their graph: each `node` call is one box of
 * the diagram, its `inputs` the arrows into it. `text()` gives the document as YAML (JSON is YAML).
 */
export class WorkflowBuilder {
  private readonly inputs: Record<string, unknown> = {};
  private readonly nodes: Record<string, NodeSpec> = {};
  private readonly outputs: Record<string, string> = {};
  private defaultsSpec: Record<string, unknown> | undefined;
  private responseTimeoutMs: number | undefined;

  constructor(readonly name: string) {}

  input(name: string, spec: Readonly<Record<string, unknown>> = {}): this {
    this.inputs[name] = spec;
    return this;
  }

  node(id: string, spec: NodeSpec): this {
    this.nodes[id] = spec;
    return this;
  }

  /** A handler node: `handler` with its inputs, plus any other keys. */
  handler(id: string, handler: string, inputs: Readonly<Record<string, unknown>> = {}, extra: NodeSpec = {}): this {
    return this.node(id, { handler, inputs, ...extra });
  }

  output(name: string, reference: string): this {
    this.outputs[name] = reference;
    return this;
  }

  defaults(defaults: Readonly<Record<string, unknown>>): this {
    this.defaultsSpec = { ...defaults };
    return this;
  }

  /** The workflow's `responseTimeoutMs`: the longest one run may take. */
  responseTimeout(ms: number): this {
    this.responseTimeoutMs = ms;
    return this;
  }

  /** The document as text. */
  text(): string {
    return JSON.stringify({
      apiVersion: 'sluice/v1',
      kind: 'Workflow',
      metadata: { name: this.name },
      ...(this.responseTimeoutMs !== undefined && { responseTimeoutMs: this.responseTimeoutMs }),
      ...(this.defaultsSpec !== undefined && { defaults: this.defaultsSpec }),
      inputs: this.inputs,
      nodes: this.nodes,
      outputs: this.outputs,
    });
  }
}

/** Starts a {@link WorkflowBuilder}. */
export function workflow(name: string): WorkflowBuilder {
  return new WorkflowBuilder(name);
}
