import { describe, expect, it } from '@jest/globals';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { SourceLines } from '../../../../src/workflow/problems/source-lines.js';
import { formatWorkflowProblem, parseWorkflow, type WorkflowProblem } from '../../../../src/workflow/index.js';

const HEADER = 'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: t }\n';

/** The formatted problems `parseWorkflow` refuses `text` with. */
function refusal(text: string, limits?: { maxBytes?: number; maxDepth?: number }): string[] {
  try {
    parseWorkflow(text, { file: 'w.yaml', ...(limits !== undefined && { limits }) });
  } catch (error) {
    if (!isSluiceError(error, 'SLUICE_WORKFLOW_INVALID')) throw error;
    return (error.details as { problems: WorkflowProblem[] }).problems.map(formatWorkflowProblem);
  }
  throw new Error('parsed without problems');
}

describe('parseWorkflow', () => {
  it('returns the document as plain data', () => {
    const parsed = parseWorkflow(`${HEADER}outputs: { a: b.c }\n`, { file: 'w.yaml' });
    expect(parsed.document).toEqual({ apiVersion: 'sluice/v1', kind: 'Workflow', metadata: { name: 't' }, outputs: { a: 'b.c' } });
  });

  it('reads YAML 1.2 core scalars: yes stays a string, 0x1F is a number', () => {
    const parsed = parseWorkflow('a: yes\nb: 0x1F\nc: ~\n', { file: 'w.yaml' });
    expect(parsed.document).toEqual({ a: 'yes', b: 31, c: null });
  });

  it('keeps the position of every key and value', () => {
    const text = `${HEADER}nodes:\n  detect: { model: m, inputs: { x: "prep.out" } }\n`;
    const parsed = parseWorkflow(text, { file: 'w.yaml' });
    const lines = new SourceLines(text);
    expect(lines.at(parsed.sourceMap.offsetOf('/nodes/detect', 'key'))).toEqual({ line: 5, column: 3 });
    expect(lines.at(parsed.sourceMap.offsetOf('/nodes/detect/inputs/x', 'key'))).toEqual({ line: 5, column: 33 });
    expect(lines.at(parsed.sourceMap.offsetOf('/nodes/detect/inputs/x', 'value'))).toEqual({ line: 5, column: 36 });
  });

  it('places a missing key at the key of its nearest parent', () => {
    const text = `${HEADER}nodes:\n  detect: { model: m }\n`;
    const parsed = parseWorkflow(text, { file: 'w.yaml' });
    expect(new SourceLines(text).at(parsed.sourceMap.offsetOf('/nodes/detect/inputs/x'))).toEqual({ line: 5, column: 3 });
  });

  it('keeps the content offset of a one-line scalar, for positions inside it', () => {
    const parsed = parseWorkflow('when: "request.x > 1"\n', { file: 'w.yaml' });
    expect(parsed.sourceMap.get('/when')).toEqual({ keyOffset: 0, valueOffset: 6, contentOffset: 7 });
  });

  it('refuses a file over the size limit before parsing it', () => {
    expect(refusal(`${HEADER}# ${'x'.repeat(200)}\n`, { maxBytes: 100 })).toEqual([
      'w.yaml:1:1: error: (top level): is 262 bytes, more than the limit of 100; a workflow only describes the graph; keep data in models and request inputs',
    ]);
  });

  it('counts the size limit in UTF-8 bytes, not characters', () => {
    expect(refusal('a: "ééééé"\n', { maxBytes: 12 })).toEqual([
      'w.yaml:1:1: error: (top level): is 16 bytes, more than the limit of 12; a workflow only describes the graph; keep data in models and request inputs',
    ]);
  });

  it('refuses nesting deeper than the depth limit', () => {
    expect(refusal(`a: ${'['.repeat(40)}${']'.repeat(40)}\n`)).toEqual([
      'w.yaml:1:35: error: (top level): is nested more than 32 levels deep; flatten the document; a workflow needs only a few levels',
    ]);
  });

  it('refuses a billion-laughs alias bomb with one problem at its first alias', () => {
    const levels = ['a: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) levels.push(`l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
    expect(refusal(`${levels.join('\n')}\n`)).toEqual([
      'w.yaml:2:10: error: l1[0]: uses the alias `*l0` (the file has 80 aliases); anchors and aliases are not supported; write the value out, or use `defaults` for shared settings',
    ]);
  });

  it('refuses a single alias', () => {
    expect(refusal('retry: &r { attempts: 2 }\nagain: *r\n')).toEqual([
      'w.yaml:2:8: error: again: uses the alias `*r`; anchors and aliases are not supported; write the value out, or use `defaults` for shared settings',
    ]);
  });

  it('refuses duplicate keys, naming where the first one is', () => {
    expect(refusal('nodes:\n  a: { handler: x/y }\n  b: { handler: x/y }\n  a: { handler: x/z }\n')).toEqual([
      'w.yaml:4:3: error: nodes.a: duplicate key `a` (first defined at line 2, column 3); give each key once; rename or remove one of them',
    ]);
  });

  it('reports every duplicate key at once', () => {
    expect(refusal('a: 1\nb: 2\na: 3\nb: 4\n')).toEqual([
      'w.yaml:3:1: error: a: duplicate key `a` (first defined at line 1, column 1); give each key once; rename or remove one of them',
      'w.yaml:4:1: error: b: duplicate key `b` (first defined at line 2, column 1); give each key once; rename or remove one of them',
    ]);
  });

  it('refuses custom tags', () => {
    expect(refusal('a: !!binary aGk=\n')).toEqual(['w.yaml:1:4: error: a: uses the tag `!!binary`; custom tags are not supported; write the plain value']);
  });

  it('accepts the core schema tags', () => {
    expect(parseWorkflow('a: !!str 5\n', { file: 'w.yaml' }).document).toEqual({ a: '5' });
  });

  it('refuses an empty file', () => {
    expect(refusal('')).toEqual([
      'w.yaml:1:1: error: (top level): is not a mapping; a workflow file is a YAML mapping with apiVersion, kind, metadata, inputs, nodes and outputs',
    ]);
  });

  it('refuses a syntax error at its position', () => {
    expect(refusal('a: [1, 2\nb: 3\n')).toEqual(['w.yaml:2:1: error: (top level): is not valid YAML: deficient indentation; fix the syntax at this position']);
  });

  it('throws one error whose message lists every problem on its own line', () => {
    let thrown: unknown;
    try {
      parseWorkflow('a: 1\na: 2\n', { file: 'w.yaml' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({
      code: 'SLUICE_WORKFLOW_INVALID',
      message: 'workflow w.yaml is invalid (1 problem):\nw.yaml:2:1: error: a: duplicate key `a` (first defined at line 1, column 1); give each key once; rename or remove one of them',
      details: {
        source: 'w.yaml',
        problems: [
          {
            severity: 'error',
            file: 'w.yaml',
            line: 2,
            column: 1,
            path: 'a',
            message: 'duplicate key `a` (first defined at line 1, column 1)',
            hint: 'give each key once; rename or remove one of them',
          },
        ],
        warnings: [],
      },
    });
  });
});
