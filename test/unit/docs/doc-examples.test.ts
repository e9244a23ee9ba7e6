import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { fencedBlocks, type FencedBlock } from '../../support/docs/doc-blocks.js';
import { documentationFiles } from '../../support/docs/doc-files.js';
import { DocExampleChecker, EXAMPLE_KINDS, recogniseBlock, type ExampleKind } from '../../support/docs/doc-example-checks.js';
import { mermaidProblems } from '../../support/docs/diagram-syntax.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** The languages whose blocks are checked. */
const CHECKED_LANGUAGES = new Set(['yaml', 'yml', 'json']);

const diagrams = documentationFiles().flatMap((file) =>
  fencedBlocks(readFileSync(join(packageRoot(), file), 'utf8'))
    .filter((block) => block.language === 'mermaid')
    .map((block) => [`${file}:${block.line}`, block.text] as const),
);

const examples = documentationFiles().flatMap((file) =>
  fencedBlocks(readFileSync(join(packageRoot(), file), 'utf8'))
    .filter((block) => CHECKED_LANGUAGES.has(block.language))
    .map((block) => ({ where: `${file}:${block.line}`, file, block })),
);

function isKind(value: string | undefined): value is ExampleKind {
  return (EXAMPLE_KINDS as readonly string[]).includes(value ?? '');
}

/** What a block is checked as: its marker's word, or the kind its content shows. */
function checkedAs(block: FencedBlock): string {
  if (block.marker === undefined) return recogniseBlock(block) ?? 'unrecognised';
  return block.marker.kind === 'example' ? block.marker.value : `${block.marker.kind}: ${block.marker.value}`;
}

let checker: DocExampleChecker;
let cleanup: () => Promise<void> = () => Promise.resolve();
beforeAll(async () => {
  const temp = await makeTempDir('sluice-doc-examples-');
  cleanup = temp.cleanup;
  checker = new DocExampleChecker(temp.dir);
});
afterAll(() => cleanup());

/**
 * Every YAML and JSON block of the documentation is what it claims to be. A block is a complete example
 * of a kind its content shows (a workflow, a `model.yaml`, …) or its marker comment names
 * (`<!-- example: json -->`), a fragment of a file (`<!-- fragment: model -->`, checked for its keys), or
 * deliberately not checked (`<!-- not-checked: why -->`). A block that is none of these fails.
 */
describe('the YAML and JSON examples of the documentation', () => {
  it('finds them', () => {
    expect(examples.length).toBeGreaterThan(25);
  });

  it('finds at least two complete workflows in docs/workflows.md', () => {
    expect(examples.filter((e) => e.file === 'docs/workflows.md' && recogniseBlock(e.block) === 'workflow').length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples.map((e) => [e.where, checkedAs(e.block), e.block] as const))('%s is checked as %s and passes', async (_where, _as, block) => {
    const { marker } = block;
    if (marker?.kind === 'not-checked') {
      expect(marker.value.length).toBeGreaterThan(0);
      return;
    }
    if (marker?.kind === 'fragment') {
      expect(() => {
        checker.checkFragment(marker.value, block);
      }).not.toThrow();
      return;
    }
    const kind = marker?.kind === 'example' ? marker.value : recogniseBlock(block);
    expect({ kind, known: isKind(kind) }).toEqual({ kind, known: true });
    if (isKind(kind)) await expect(checker.check(kind, block)).resolves.toBeUndefined();
  });
});

describe('the checks of documentation examples', () => {
  const yaml = (text: string, marker?: FencedBlock['marker']): FencedBlock => ({ language: 'yaml', text, line: 1, ...(marker ? { marker } : {}) });
  const json = (text: string): FencedBlock => ({ language: 'json', text, line: 1 });

  it.each([
    ['a workflow', yaml('apiVersion: sluice/v1\nkind: Workflow\n'), 'workflow'],
    ['a TorchServe spec', yaml('models: {}\ndag: {}\n'), 'torchserve-workflow'],
    ['a model.yaml', yaml('name: m\nmodel: m.onnx\n'), 'model'],
    ['a file named by its first line', yaml('# sluice-plugin.yaml\nname: p\n'), 'plugin-manifest'],
    ['a config', yaml('inference: { port: 9000 }\n'), 'config'],
    ['an error answer', json('{"error": "x", "errorCode": "SLUICE_MODEL_NOT_FOUND"}'), 'error-answer'],
    ['a log line', json('{"level": "warn", "msg": "x"}'), 'log-line'],
    ['an OIP request', json('{"inputs": []}'), 'oip-request'],
    ['an OIP response', json('{"model_name": "m", "outputs": []}'), 'oip-response'],
  ])('recognise %s', (_what, block, kind) => {
    expect(recogniseBlock(block)).toBe(kind);
  });

  it.each([
    ['YAML of no known file', yaml('colour: blue\n')],
    ['JSON of no known kind', json('{"tabby": 0.4}')],
    ['text that does not parse', json('{"a": ')],
  ])('recognise nothing in %s', (_what, block) => {
    expect(recogniseBlock(block)).toBeUndefined();
  });

  it.each([
    ['config', yaml('inference: { prot: 9000 }\n'), /inference.*prot/],
    ['config', yaml('plugins:\n  - { name: token-auth, config: { expirationMinute: 30 } }\n'), /plugin token-auth: config: .*expirationMinute/],
    ['model', yaml('name: m\nversion: 1\nmodel: m.onnx\n'), /version/],
    ['workflow', yaml('apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: w }\ninputs: { x: { datatype: FP32 } }\nnodes:\n  a: { model: iris, inputs: { x: $request.x } }\noutputs: { y: a.label }\n'), /model iris has no input `x`/],
    ['oip-request', json('{"inputs": [{"name": "x", "shape": [2], "datatype": "FP32", "data": [1]}]}'), /shape/],
    ['error-answer', json('{"error": "x", "errorCode": "SLUICE_NO_SUCH_CODE"}'), /errorCode/],
  ] as const)('refuse a broken %s example', async (kind, block, problem) => {
    await expect(checker.check(kind, block)).rejects.toThrow(problem);
  });

  it('refuses a fragment that uses a key its file does not have', () => {
    expect(() => {
      checker.checkFragment('model', yaml('handler: x\nhandlerOption: {}\n'));
    }).toThrow('handlerOption: not keys of model.schema.json');
  });
});

/**
 * Mermaid diagrams cannot be rendered here (the renderer needs a browser), so they keep to the subset
 * `sluice workflow graph` prints, which a test checks line by line.
 */
describe('the Mermaid diagrams of the documentation', () => {
  it('include the architecture and the ocr workflow', () => {
    expect(diagrams.map(([where]) => where.split(':')[0])).toEqual(expect.arrayContaining(['docs/architecture.md', 'docs/workflows.md']));
  });

  it.each(diagrams)('%s keeps to the Mermaid subset', (_where, text) => {
    expect(mermaidProblems(text)).toEqual([]);
  });

  it('draw the ocr workflow in docs/workflows.md as `sluice workflow graph ocr` prints it', () => {
    const golden = readFileSync(join(packageRoot(), 'test', 'fixtures', 'workflow-graphs', 'ocr.mmd'), 'utf8');
    expect(diagrams.find(([where, text]) => where.startsWith('docs/workflows.md') && text.includes('%% workflow ocr '))?.[1]).toBe(golden.replace(/\n$/, ''));
  });
});

