import { describe, expect, it } from '@jest/globals';
import { dotProblems, mermaidProblems } from '../../support/docs/diagram-syntax.js';

const MERMAID = ['flowchart LR', '  %% a comment', '  a(["$request.x"])', '  b["node<br/>model m"]', '  a -->|"x"| b', '  classDef model fill:#dbeafe', '  class b model', ''].join('\n');

describe('the Mermaid subset check', () => {
  it('accepts boxes, arrows, comments and classes', () => {
    expect(mermaidProblems(MERMAID)).toEqual([]);
  });

  it('accepts subgraphs, directions, the other arrows and shapes', () => {
    const text = ['flowchart TD', 'subgraph s ["Serving"]', '  direction LR', '  c[("store")]', '  d{{"check"}}', 'end', 'c -.-> d', 'c ==>|"batch"| d'].join('\n');
    expect(mermaidProblems(text)).toEqual([]);
  });

  it.each([
    ['graph LR\n  a["x"]', ['line 1: a diagram starts with `flowchart LR` (or TD)']],
    ['flowchart LR\n  a["say "hi""]', ['line 2: box a: the label holds a raw "\\""; write it as an entity code such as #34;']],
    ['flowchart LR\n  a["p < 0.9"]', ['line 2: box a: the label holds a raw "<"; write it as an entity code such as #60;']],
    ['flowchart LR\n  a["x"]\n  a -->|"a|b"| a', ['line 3: the label holds a raw "|"; write it as an entity code such as #124;']],
    ['flowchart LR\n  a["x"]\n  a --> |"x"| a', ['line 3: an arrow is written `a --> b` or `a -->|"label"| b` between box ids']],
    ['flowchart LR\n  a["x"]\n  a --> b', ['line 3: b is not a declared box']],
    ['flowchart LR\n  a["x"]\n  a["y"]', ['line 3: the box a is declared twice']],
    ['flowchart LR\n  end["x"]', ['line 2: the box id `end` is a Mermaid keyword; choose another']],
    ['flowchart LR\n  a["x"]\nend', ['line 3: `end` closes no subgraph']],
    ['flowchart LR\n  class["x"]', ['line 2: the box id `class` is a Mermaid keyword; choose another']],
    ['flowchart LR\n  a[x]', ['line 2: not a box, arrow, subgraph, classDef or class line of the subset: "a[x]"']],
    ['flowchart LR\n  a["x")', ['line 2: box a opens with [" but does not end with "]']],
    ['flowchart LR\nsubgraph s ["S"]\n  a["x"]', ['line 3: 1 subgraph(s) not closed with `end`']],
  ])('refuses %j', (text, problems) => {
    expect(mermaidProblems(text)).toEqual(problems);
  });
});

const DOT = ['digraph "w" {', '  rankdir=LR;', '  node [fontname="Helvetica"];', '  a [label="x\\ny", shape=box];', '  b [label="say \\"hi\\""];', '  a -> b [label="x → y", style=dashed];', '}', ''].join('\n');

describe('the DOT subset check', () => {
  it('accepts attributes, nodes and edges', () => {
    expect(dotProblems(DOT)).toEqual([]);
  });

  it.each([
    ['graph "w" {\n}', ['line 1: a graph starts with `digraph "name" {`']],
    ['digraph "w" {\n  a [label="x"];', ['line 2: a graph ends with `}`']],
    ['digraph "w" {\n  a [label="say "hi""];\n}', ['line 2: not an attribute, node or edge statement of the subset: "a [label=\\"say \\"hi\\"\\"];"']],
    ['digraph "w" {\n  a [label="x"];\n  a -> b;\n}', ['line 3: b is not a declared node']],
    ['digraph "w" {\n  edge -> a;\n  a [label="x"];\n}', ['line 2: edge is not a declared node']],
    ['digraph "w" {\n  subgraph [label="x"];\n}', ['line 2: the node id `subgraph` is a DOT keyword; choose another']],
  ])('refuses %j', (text, problems) => {
    expect(dotProblems(text)).toEqual(problems);
  });
});
