import type { DiagramEdgeKind, DiagramVertex, DiagramVertexKind, WorkflowDiagram } from './workflow-diagram.js';

/** The brackets of each kind of box: stadium inputs, rectangle models, rounded handlers, subroutine workflows, slanted outputs. */
const SHAPES: Readonly<Record<DiagramVertexKind, readonly [string, string]>> = {
  input: ['([', '])'],
  model: ['[', ']'],
  handler: ['(', ')'],
  workflow: ['[[', ']]'],
  output: ['[/', '/]'],
};

const ARROWS: Readonly<Record<DiagramEdgeKind, string>> = { data: '-->', forEach: '==>', condition: '-.->' };

/** Colours per kind of box, and the marks of fan-out (a thick border) and conditions (a dashed one). */
const CLASS_STYLES: Readonly<Record<string, string>> = {
  input: 'fill:#eef2f7,stroke:#5b6b82',
  model: 'fill:#dbeafe,stroke:#1d4ed8',
  handler: 'fill:#dcfce7,stroke:#15803d',
  workflow: 'fill:#f3e8ff,stroke:#7e22ce',
  output: 'fill:#eef2f7,stroke:#5b6b82',
  forEach: 'stroke-width:3px',
  conditional: 'stroke-dasharray:5 5',
};

/**
 * Text inside a quoted Mermaid label: characters the format reads (quotes, angle brackets, `#`, `&`, `|`,
 * backticks) as entity codes, which Mermaid shows as the characters themselves.
 */
export function mermaidText(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[#"<>&|`]/g, (c) => `#${c.charCodeAt(0)};`);
}

function vertexLine(vertex: DiagramVertex): string {
  const [open, close] = SHAPES[vertex.kind];
  return `  ${vertex.id}${open}"${vertex.lines.map(mermaidText).join('<br/>')}"${close}`;
}

/** The classes the boxes use, each defined once and given to its boxes. */
function classLines(diagram: WorkflowDiagram): string[] {
  const members = new Map<string, string[]>();
  const add = (name: string, id: string): void => {
    members.set(name, [...(members.get(name) ?? []), id]);
  };
  for (const vertex of diagram.vertices) {
    add(vertex.kind, vertex.id);
    if (vertex.forEach) add('forEach', vertex.id);
    if (vertex.conditional) add('conditional', vertex.id);
  }
  const used = Object.keys(CLASS_STYLES).filter((name) => members.has(name));
  return [...used.map((name) => `  classDef ${name} ${CLASS_STYLES[name] ?? ''}`), ...used.map((name) => `  class ${(members.get(name) ?? []).join(',')} ${name}`)];
}

/**
 * A workflow diagram as a Mermaid flowchart (left to right), the subset GitHub renders: one line per box
 * and arrow, labels quoted, colours by kind of box.
 */
export function printMermaid(diagram: WorkflowDiagram): string {
  const lines = [
    'flowchart LR',
    `  %% workflow ${diagram.name} ${diagram.version} (${diagram.file})`.replace(/[\r\n]/g, ' '),
    ...diagram.vertices.map(vertexLine),
    ...diagram.edges.map((edge) => `  ${edge.from} ${ARROWS[edge.kind]}|"${mermaidText(edge.label)}"| ${edge.to}`),
    ...classLines(diagram),
  ];
  return `${lines.join('\n')}\n`;
}
