/**
 * Checks of the diagram text Sluice prints and its documentation shows, without a renderer: Mermaid's
 * renderer needs a browser, and Graphviz is not installed everywhere the tests run. Each check accepts the
 * subset of its format that `sluice workflow graph` prints and the hand-written diagrams keep to, and says
 * what is wrong with anything else, line by line.
 */

/** Box shapes of a Mermaid flowchart, as opening and closing brackets (longest openings first). */
const MERMAID_SHAPES: readonly (readonly [string, string])[] = [
  ['([', '])'],
  ['[[', ']]'],
  ['[(', ')]'],
  ['[/', '/]'],
  ['((', '))'],
  ['{{', '}}'],
  ['[', ']'],
  ['(', ')'],
  ['{', '}'],
];

const MERMAID_ID = '[A-Za-z][A-Za-z0-9_]*';
const MERMAID_ARROWS = ['-->', '-.->', '==>'];
/** Words Mermaid reads as keywords, which a box id must not be. */
const MERMAID_KEYWORDS = new Set(['end', 'subgraph', 'graph', 'flowchart', 'class', 'classDef', 'click', 'style', 'linkStyle', 'direction']);

/** What is wrong with a quoted Mermaid label's text, or undefined: raw characters the format reads are refused. */
function mermaidLabelProblem(text: string): string | undefined {
  const bare = text.replace(/<br\/>/g, '').replace(/#(\d+|[a-z]+);/g, '');
  const bad = /["<>`|#&]/.exec(bare);
  return bad === null ? undefined : `the label holds a raw ${JSON.stringify(bad[0])}; write it as an entity code such as #${bad[0].charCodeAt(0)};`;
}

/** A box declaration `id<open>"label"<close>`: its id, or a problem. */
function mermaidBox(text: string): { id: string } | { problem: string } | undefined {
  const id = new RegExp(`^(${MERMAID_ID})`).exec(text)?.[1];
  if (id === undefined) return undefined;
  const rest = text.slice(id.length);
  for (const [open, close] of MERMAID_SHAPES) {
    if (!rest.startsWith(`${open}"`)) continue;
    if (!rest.endsWith(`"${close}`)) return { problem: `box ${id} opens with ${open}" but does not end with "${close}` };
    const problem = mermaidLabelProblem(rest.slice(open.length + 1, rest.length - close.length - 1));
    return problem === undefined ? { id } : { problem: `box ${id}: ${problem}` };
  }
  return undefined;
}

/**
 * The problems of a Mermaid flowchart, one per line at fault (`line 3: …`); empty when it keeps to the
 * subset: `flowchart LR|TD`, `%%` comments, boxes with quoted labels, arrows (`-->`, `-.->`, `==>`, with an
 * optional `|"label"|`) between declared boxes, subgraphs with quoted titles, `direction`, `classDef` and
 * `class`.
 */
export function mermaidProblems(text: string): string[] {
  const problems: string[] = [];
  const declared = new Set<string>();
  const used: { id: string; line: number }[] = [];
  let depth = 0;
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first < 0 || !/^flowchart (LR|RL|TD|TB|BT)$/.test(lines[first]?.trim() ?? '')) problems.push(`line ${first + 1}: a diagram starts with \`flowchart LR\` (or TD)`);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    const at = `line ${index + 1}`;
    if (index <= first || line === '' || line.startsWith('%%')) return;
    if (line === 'end') {
      depth -= 1;
      if (depth < 0) problems.push(`${at}: \`end\` closes no subgraph`);
      return;
    }
    const subgraph = new RegExp(`^subgraph (${MERMAID_ID}) ?\\["([^"]*)"\\]$`).exec(line);
    if (subgraph !== null) {
      depth += 1;
      declared.add(subgraph[1] ?? '');
      const problem = mermaidLabelProblem(subgraph[2] ?? '');
      if (problem !== undefined) problems.push(`${at}: ${problem}`);
      return;
    }
    if (/^direction (LR|RL|TD|TB|BT)$/.test(line)) return;
    if (new RegExp(`^classDef ${MERMAID_ID} [a-z-]+:[^;\\s]+(,[a-z-]+:[^;\\s]+)*$`).test(line.replace(/stroke-dasharray:(\d+) (\d+)/, 'stroke-dasharray:$1_$2'))) return;
    const classLine = new RegExp(`^class (${MERMAID_ID}(?:,${MERMAID_ID})*) ${MERMAID_ID}$`).exec(line);
    if (classLine !== null) {
      for (const id of (classLine[1] ?? '').split(',')) used.push({ id, line: index + 1 });
      return;
    }
    const arrow = MERMAID_ARROWS.find((a) => line.includes(` ${a}`));
    if (arrow !== undefined) {
      const edge = new RegExp(`^(${MERMAID_ID}) ${arrow.replace(/[.]/g, '\\.')}(?:\\|"([^"]*)"\\|)? (${MERMAID_ID})$`).exec(line);
      if (edge === null) {
        problems.push(`${at}: an arrow is written \`a ${arrow} b\` or \`a ${arrow}|"label"| b\` between box ids`);
        return;
      }
      const problem = edge[2] === undefined ? undefined : mermaidLabelProblem(edge[2]);
      if (problem !== undefined) problems.push(`${at}: ${problem}`);
      used.push({ id: edge[1] ?? '', line: index + 1 }, { id: edge[3] ?? '', line: index + 1 });
      return;
    }
    const box = mermaidBox(line);
    if (box === undefined) {
      problems.push(`${at}: not a box, arrow, subgraph, classDef or class line of the subset: ${JSON.stringify(line)}`);
    } else if ('problem' in box) {
      problems.push(`${at}: ${box.problem}`);
    } else if (MERMAID_KEYWORDS.has(box.id)) {
      problems.push(`${at}: the box id \`${box.id}\` is a Mermaid keyword; choose another`);
    } else if (declared.has(box.id)) {
      problems.push(`${at}: the box ${box.id} is declared twice`);
    } else {
      declared.add(box.id);
    }
  });
  if (depth > 0) problems.push(`line ${lines.length}: ${depth} subgraph(s) not closed with \`end\``);
  for (const { id, line } of used) if (!declared.has(id)) problems.push(`line ${line}: ${id} is not a declared box`);
  return problems;
}

const DOT_ID = '[A-Za-z_][A-Za-z0-9_]*';
/** A DOT quoted string: no raw quote or line break, backslashes escaping one character each. */
const DOT_STRING = '"(?:[^"\\\\\\n]|\\\\.)*"';
const DOT_VALUE = `(?:${DOT_STRING}|[A-Za-z0-9_.#-]+)`;
const DOT_ATTRIBUTE = `${DOT_ID}=${DOT_VALUE}`;
const DOT_ATTRIBUTES = `\\[${DOT_ATTRIBUTE}(?:, ${DOT_ATTRIBUTE})*\\]`;

/**
 * The problems of a Graphviz DOT digraph, one per line at fault; empty when it keeps to the subset `sluice
 * workflow graph --format dot` prints: `digraph "name" {`, graph attributes (`rankdir=LR;`), default node
 * and edge attributes, nodes with attribute lists, `a -> b [..];` between declared nodes, and `}`.
 */
export function dotProblems(text: string): string[] {
  const problems: string[] = [];
  const declared = new Set<string>();
  const used: { id: string; line: number }[] = [];
  const lines = text.split('\n');
  if (!new RegExp(`^digraph ${DOT_STRING} \\{$`).test(lines[0] ?? '')) problems.push('line 1: a graph starts with `digraph "name" {`');
  const last = lines.findLastIndex((line) => line.trim() !== '');
  if (lines[last]?.trim() !== '}') problems.push(`line ${last + 1}: a graph ends with \`}\``);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (index === 0 || index === last || line === '') return;
    const at = `line ${index + 1}`;
    if (new RegExp(`^${DOT_ATTRIBUTE};$`).test(line)) return;
    if (new RegExp(`^(node|edge|graph) ${DOT_ATTRIBUTES};$`).test(line)) return;
    const edge = new RegExp(`^(${DOT_ID}) -> (${DOT_ID})(?: ${DOT_ATTRIBUTES})?;$`).exec(line);
    if (edge !== null) {
      used.push({ id: edge[1] ?? '', line: index + 1 }, { id: edge[2] ?? '', line: index + 1 });
      return;
    }
    const node = new RegExp(`^(${DOT_ID}) ${DOT_ATTRIBUTES};$`).exec(line);
    if (node === null) {
      problems.push(`${at}: not an attribute, node or edge statement of the subset: ${JSON.stringify(line)}`);
    } else if (['node', 'edge', 'graph', 'digraph', 'subgraph', 'strict'].includes(node[1] ?? '')) {
      problems.push(`${at}: the node id \`${node[1] ?? ''}\` is a DOT keyword; choose another`);
    } else {
      declared.add(node[1] ?? '');
    }
  });
  for (const { id, line } of used) if (!declared.has(id)) problems.push(`line ${line}: ${id} is not a declared node`);
  return problems;
}
