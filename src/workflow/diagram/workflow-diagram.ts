import { describeTarget } from '../definition/node-target.js';
import type { Binding, ValueSource } from '../definition/value-source.js';
import type { WorkflowInputSpec } from '../definition/workflow-input-spec.js';
import type { WorkflowNode } from '../definition/workflow-definition.js';
import type { WorkflowPlan } from '../planner/workflow-plan.js';
import { clipText } from '../problems/clip-text.js';

/** What a vertex of a workflow diagram stands for. */
export type DiagramVertexKind = 'input' | 'model' | 'handler' | 'workflow' | 'output';

/** A box of the diagram: a request input, a node or a workflow output. */
export interface DiagramVertex {
  /** An id made for the printers (`in1`, `n1`, `out1`): node ids may hold characters the formats reserve. */
  readonly id: string;
  readonly kind: DiagramVertexKind;
  /** Its text, one entry per line: the node id first, then what it runs, its fan-out, condition and literals. */
  readonly lines: readonly string[];
  /** A node with `forEach`: one call per element. */
  readonly forEach: boolean;
  /** A node with `when`: skipped when its condition is false. */
  readonly conditional: boolean;
}

/** How an edge carries a value. */
export type DiagramEdgeKind = 'data' | 'forEach' | 'condition';

/** An arrow of the diagram, from where a value comes to where it goes. */
export interface DiagramEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: DiagramEdgeKind;
  /** The ports it joins (`sigmoid_0.tmp_0 → probabilities`), or the condition it feeds (`when …`). */
  readonly label: string;
}

/** A workflow as boxes and arrows, ready for a printer. */
export interface WorkflowDiagram {
  readonly name: string;
  readonly version: string;
  readonly file: string;
  readonly vertices: readonly DiagramVertex[];
  readonly edges: readonly DiagramEdge[];
}

/** Options of {@link workflowDiagram}. */
export interface WorkflowDiagramOptions {
  /** A line more for some nodes, by node id (what a converted TorchServe node stands for, say). */
  readonly notes?: Readonly<Record<string, string>>;
}

/** Longest condition or literal a box or arrow quotes. */
const MAX_QUOTED = 60;

/** A value source as the file writes it. */
export function sourceText(source: ValueSource): string {
  switch (source.kind) {
    case 'request':
      return `$request.${source.input}`;
    case 'node':
      return `${source.node}.${source.output}`;
    case 'item':
      return '$item';
    case 'literal':
      return clipText(JSON.stringify(source.value), MAX_QUOTED);
  }
}

/** A binding as the file writes it: its alternatives joined by `??`. */
export function bindingText(binding: Binding): string {
  return binding.alternatives.map(sourceText).join(' ?? ');
}

function inputLines(name: string, spec: WorkflowInputSpec): string[] {
  const type =
    spec.type === 'tensor' ? [spec.datatype ?? 'tensor', spec.shape === undefined ? '' : `[${spec.shape.join(', ')}]`].filter((part) => part !== '').join(' ') : spec.type;
  return [`$request.${name}`, spec.optional ? `${type}, optional` : type];
}

/** Joins two port names: one name when they are the same. */
function portsLabel(from: string, to: string): string {
  return from === to ? from : `${from} → ${to}`;
}

/** Builds the vertices and edges of one workflow, in a fixed order: inputs, nodes, outputs as the file lists them. */
class DiagramBuilder {
  readonly vertices: DiagramVertex[] = [];
  readonly edges: DiagramEdge[] = [];
  private readonly inputIds = new Map<string, string>();
  private readonly nodeIds = new Map<string, string>();

  constructor(
    private readonly plan: WorkflowPlan,
    private readonly options: WorkflowDiagramOptions,
  ) {}

  build(): WorkflowDiagram {
    const { workflow } = this.plan;
    for (const [name, spec] of Object.entries(workflow.inputs)) {
      const id = `in${this.inputIds.size + 1}`;
      this.inputIds.set(name, id);
      this.vertices.push({ id, kind: 'input', lines: inputLines(name, spec), forEach: false, conditional: false });
    }
    const nodes = Object.values(workflow.nodes);
    for (const node of nodes) this.nodeIds.set(node.id, `n${this.nodeIds.size + 1}`);
    for (const node of nodes) this.addNode(node);
    Object.entries(workflow.outputs).forEach(([name, binding], index) => {
      const id = `out${index + 1}`;
      this.vertices.push({ id, kind: 'output', lines: [name], forEach: false, conditional: false });
      this.addBinding(binding, id, name, 'data');
    });
    return { name: workflow.name, version: workflow.version, file: workflow.file, vertices: this.vertices, edges: this.edges };
  }

  private addNode(node: WorkflowNode): void {
    const id = this.nodeIds.get(node.id) ?? '';
    const lines = [node.id, describeTarget(node.target)];
    if (node.forEach !== undefined) lines.push(`forEach ${bindingText(node.forEach)}`);
    const conditionSources = this.conditionSources(node);
    // A condition is written on the arrows from what it reads, or in the box when it reads nothing.
    if (node.when !== undefined && conditionSources.length === 0) lines.push(`when ${clipText(node.when.expression, MAX_QUOTED)}`);
    for (const [port, binding] of Object.entries(node.inputs)) {
      // Values that come from no other box (literals, `$item`) are written in the box itself.
      if (binding.alternatives.some((source) => source.kind === 'literal' || source.kind === 'item')) lines.push(`${port} = ${bindingText(binding)}`);
    }
    const note = this.options.notes?.[node.id];
    if (note !== undefined) lines.push(note);
    this.vertices.push({ id, kind: node.target.kind, lines, forEach: node.forEach !== undefined, conditional: node.when !== undefined });
    if (node.forEach !== undefined) this.addBinding(node.forEach, id, undefined, 'forEach');
    for (const [port, binding] of Object.entries(node.inputs)) this.addBinding(binding, id, port, 'data');
    if (node.when !== undefined) {
      const label = `when ${clipText(node.when.expression, MAX_QUOTED)}`;
      for (const from of conditionSources) this.edges.push({ from, to: id, kind: 'condition', label });
    }
  }

  /** The boxes a node's `when` reads (request inputs and nodes), each once. */
  private conditionSources(node: WorkflowNode): string[] {
    const sources = new Set<string>();
    for (const reference of node.when?.references ?? []) {
      const from = reference.kind === 'request' ? this.inputIds.get(reference.input) : this.nodeIds.get(reference.node);
      if (from !== undefined) sources.add(from);
    }
    return [...sources];
  }

  /** An edge per alternative of `binding` that comes from another box; `port` is what it feeds (undefined for a `forEach`). */
  private addBinding(binding: Binding, to: string, port: string | undefined, kind: DiagramEdgeKind): void {
    const count = binding.alternatives.length;
    binding.alternatives.forEach((source, index) => {
      const from = source.kind === 'request' ? this.inputIds.get(source.input) : source.kind === 'node' ? this.nodeIds.get(source.node) : undefined;
      if (from === undefined) return;
      const fromPort = source.kind === 'request' ? source.input : source.kind === 'node' ? source.output : '';
      const ports = port === undefined ? `forEach ${fromPort}` : portsLabel(fromPort, port);
      const label = count > 1 ? `${ports} (alternative ${index + 1} of ${count})` : ports;
      this.edges.push({ from, to, kind, label });
    });
  }
}

/**
 * A validated, planned workflow as a diagram: one box per request input, node and output, and an arrow per
 * value a node or output reads (labelled with the ports it joins), per `forEach` list, and per node or input a
 * `when` reads (labelled with the condition). Literals, `$item` and a condition that reads nothing are
 * written inside their node's box.
 */
export function workflowDiagram(plan: WorkflowPlan, options: WorkflowDiagramOptions = {}): WorkflowDiagram {
  return new DiagramBuilder(plan, options).build();
}
