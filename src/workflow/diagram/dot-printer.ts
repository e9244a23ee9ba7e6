import type { DiagramEdgeKind, DiagramVertex, DiagramVertexKind, WorkflowDiagram } from './workflow-diagram.js';

/** How one kind of box looks. */
interface BoxLook {
  readonly shape: string;
  readonly styles: readonly string[];
  readonly fill: string;
  readonly border: string;
}

/** Oval inputs, box models, rounded handlers, 3-D workflows, slanted outputs, coloured by kind. */
const LOOKS: Readonly<Record<DiagramVertexKind, BoxLook>> = {
  input: { shape: 'oval', styles: ['filled'], fill: '#eef2f7', border: '#5b6b82' },
  model: { shape: 'box', styles: ['filled'], fill: '#dbeafe', border: '#1d4ed8' },
  handler: { shape: 'box', styles: ['rounded', 'filled'], fill: '#dcfce7', border: '#15803d' },
  workflow: { shape: 'box3d', styles: ['filled'], fill: '#f3e8ff', border: '#7e22ce' },
  output: { shape: 'parallelogram', styles: ['filled'], fill: '#eef2f7', border: '#5b6b82' },
};

const EDGE_ATTRIBUTES: Readonly<Record<DiagramEdgeKind, string>> = { data: '', forEach: ', penwidth=2.5', condition: ', style=dashed' };

/** A DOT quoted string: backslashes and quotes escaped, line breaks as `\n`. */
export function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

/** A box: a fan-out node has a double border, a conditional one a dashed border. */
function vertexLine(vertex: DiagramVertex): string {
  const look = LOOKS[vertex.kind];
  const styles = vertex.conditional ? [...look.styles, 'dashed'] : look.styles;
  const attributes = [
    `label=${dotString(vertex.lines.join('\n'))}`,
    `shape=${look.shape}`,
    `style=${dotString(styles.join(','))}`,
    `fillcolor=${dotString(look.fill)}`,
    `color=${dotString(look.border)}`,
    ...(vertex.forEach ? ['peripheries=2'] : []),
  ];
  return `  ${vertex.id} [${attributes.join(', ')}];`;
}

/** A workflow diagram as a Graphviz DOT digraph (left to right), for `dot -Tsvg` and friends. */
export function printDot(diagram: WorkflowDiagram): string {
  const lines = [
    `digraph ${dotString(diagram.name)} {`,
    `  label=${dotString(`workflow ${diagram.name} ${diagram.version} (${diagram.file})`)};`,
    '  labelloc=t;',
    '  fontname="Helvetica";',
    '  rankdir=LR;',
    '  node [fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=10];',
    ...diagram.vertices.map(vertexLine),
    ...diagram.edges.map((edge) => `  ${edge.from} -> ${edge.to} [label=${dotString(edge.label)}${EDGE_ATTRIBUTES[edge.kind]}];`),
    '}',
  ];
  return `${lines.join('\n')}\n`;
}
