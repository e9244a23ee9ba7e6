import { describe, expect, it } from '@jest/globals';
import { dotString, loadWorkflow, mermaidText, printDot, printMermaid, workflowDiagram, type WorkflowDiagram } from '../../../../src/workflow/index.js';
import { dotProblems, mermaidProblems } from '../../../support/docs/diagram-syntax.js';
import { testCatalog } from '../support/test-catalog.js';

/** A workflow with a node of every kind, a fan-out, a condition, alternatives and literals. */
const WORKFLOW = `
apiVersion: sluice/v1
kind: Workflow
metadata: { name: every-kind, version: "2" }
inputs:
  image: { datatype: BYTES }
  threshold: { type: number, optional: true }
nodes:
  prep: { handler: ocr/detect-preprocess, inputs: { image: $request.image } }
  detect: { model: ppocr-det, inputs: { x: prep.pixels } }
  crop: { handler: ocr/crop-lines, inputs: { image: $request.image, probs: detect.output } }
  read: { model: ppocr-rec, forEach: crop.lines, inputs: { x: $item } }
  decode: { handler: ocr/ctc-decode, inputs: { logits: read.output }, when: "request.threshold > 0.5" }
  fixed: { handler: ocr/ctc-decode, inputs: { logits: { value: [1, 2] } }, when: "true" }
  shout: { workflow: shout, inputs: { text: decode.text ?? fixed.text } }
outputs:
  text: shout.text ?? decode.text
  boxes: crop.boxes
`;

function diagram(): WorkflowDiagram {
  const { plan } = loadWorkflow(WORKFLOW, { file: 'every-kind.yaml', catalog: testCatalog() });
  return workflowDiagram(plan, { notes: { shout: 'a note' } });
}

describe('workflowDiagram', () => {
  it('makes a box per request input, node and output, in file order', () => {
    expect(diagram().vertices).toEqual([
      { id: 'in1', kind: 'input', lines: ['$request.image', 'BYTES'], forEach: false, conditional: false },
      { id: 'in2', kind: 'input', lines: ['$request.threshold', 'number, optional'], forEach: false, conditional: false },
      { id: 'n1', kind: 'handler', lines: ['prep', 'handler ocr/detect-preprocess'], forEach: false, conditional: false },
      { id: 'n2', kind: 'model', lines: ['detect', 'model ppocr-det'], forEach: false, conditional: false },
      { id: 'n3', kind: 'handler', lines: ['crop', 'handler ocr/crop-lines'], forEach: false, conditional: false },
      { id: 'n4', kind: 'model', lines: ['read', 'model ppocr-rec', 'forEach crop.lines', 'x = $item'], forEach: true, conditional: false },
      { id: 'n5', kind: 'handler', lines: ['decode', 'handler ocr/ctc-decode'], forEach: false, conditional: true },
      { id: 'n6', kind: 'handler', lines: ['fixed', 'handler ocr/ctc-decode', 'when true', 'logits = [1,2]'], forEach: false, conditional: true },
      { id: 'n7', kind: 'workflow', lines: ['shout', 'workflow shout', 'a note'], forEach: false, conditional: false },
      { id: 'out1', kind: 'output', lines: ['text'], forEach: false, conditional: false },
      { id: 'out2', kind: 'output', lines: ['boxes'], forEach: false, conditional: false },
    ]);
  });

  it('draws an arrow per value read, per forEach list and per box a condition reads', () => {
    expect(diagram().edges).toEqual([
      { from: 'in1', to: 'n1', kind: 'data', label: 'image' },
      { from: 'n1', to: 'n2', kind: 'data', label: 'pixels → x' },
      { from: 'in1', to: 'n3', kind: 'data', label: 'image' },
      { from: 'n2', to: 'n3', kind: 'data', label: 'output → probs' },
      { from: 'n3', to: 'n4', kind: 'forEach', label: 'forEach lines' },
      { from: 'n4', to: 'n5', kind: 'data', label: 'output → logits' },
      { from: 'in2', to: 'n5', kind: 'condition', label: 'when request.threshold > 0.5' },
      { from: 'n5', to: 'n7', kind: 'data', label: 'text (alternative 1 of 2)' },
      { from: 'n6', to: 'n7', kind: 'data', label: 'text (alternative 2 of 2)' },
      { from: 'n7', to: 'out1', kind: 'data', label: 'text (alternative 1 of 2)' },
      { from: 'n5', to: 'out1', kind: 'data', label: 'text (alternative 2 of 2)' },
      { from: 'n3', to: 'out2', kind: 'data', label: 'boxes' },
    ]);
  });

  it('names the workflow, its version and file', () => {
    expect(diagram()).toMatchObject({ name: 'every-kind', version: '2', file: 'every-kind.yaml' });
  });
});

describe('printMermaid', () => {
  const text = printMermaid(diagram());

  it('prints a flowchart of the Mermaid subset GitHub renders', () => {
    expect(mermaidProblems(text)).toEqual([]);
  });

  it('prints each kind of box in its shape and each kind of arrow in its line', () => {
    expect(text.split('\n')).toEqual(
      expect.arrayContaining([
        '  in1(["$request.image<br/>BYTES"])',
        '  n1("prep<br/>handler ocr/detect-preprocess")',
        '  n2["detect<br/>model ppocr-det"]',
        '  n7[["shout<br/>workflow shout<br/>a note"]]',
        '  out1[/"text"/]',
        '  n3 ==>|"forEach lines"| n4',
        '  in2 -.->|"when request.threshold #62; 0.5"| n5',
        '  n1 -->|"pixels → x"| n2',
      ]),
    );
  });

  it('defines only the classes its boxes use, and gives each to its boxes', () => {
    expect(text.split('\n').filter((line) => line.startsWith('  class '))).toEqual([
      '  class in1,in2 input',
      '  class n2,n4 model',
      '  class n1,n3,n5,n6 handler',
      '  class n7 workflow',
      '  class out1,out2 output',
      '  class n4 forEach',
      '  class n5,n6 conditional',
    ]);
  });
});

describe('printDot', () => {
  const text = printDot(diagram());

  it('prints a digraph of the DOT subset', () => {
    expect(dotProblems(text)).toEqual([]);
  });

  it('marks fan-out with a double border and conditions with dashes', () => {
    expect(text).toContain('  n4 [label="read\\nmodel ppocr-rec\\nforEach crop.lines\\nx = $item", shape=box, style="filled", fillcolor="#dbeafe", color="#1d4ed8", peripheries=2];');
    expect(text).toContain('  n5 [label="decode\\nhandler ocr/ctc-decode", shape=box, style="rounded,filled,dashed", fillcolor="#dcfce7", color="#15803d"];');
    expect(text).toContain('  in2 -> n5 [label="when request.threshold > 0.5", style=dashed];');
    expect(text).toContain('  n3 -> n4 [label="forEach lines", penwidth=2.5];');
  });
});

describe('label text', () => {
  it('writes what Mermaid reads as entity codes, and line breaks as spaces', () => {
    expect(mermaidText('a < b && "c" | `d` #e\n  f')).toBe('a #60; b #38;#38; #34;c#34; #124; #96;d#96; #35;e f');
  });

  it('escapes quotes, backslashes and line breaks for DOT', () => {
    expect(dotString('say "hi" \\ then\nmore')).toBe('"say \\"hi\\" \\\\ then\\nmore"');
  });
});
