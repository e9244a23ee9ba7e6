import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import { packageRoot } from '../../../../src/package-files/package-root.js';
import type { Tensor } from '../../../../src/sdk/tensor/index.js';
import { executeWorkflow, loadWorkflow } from '../../../../src/workflow/index.js';
import { Gate } from '../support/gate.js';
import { TEST_MODELS } from '../support/test-catalog.js';
import { WorkflowHarness } from '../support/workflow-harness.js';

function tensor(name: string, shape: number[], values: number[]): Tensor {
  return { name, datatype: 'FP32', shape, data: new Float32Array(values) };
}

/**
 * Fakes for the OCR example: preprocessing gives pixels, detection gives probabilities, cropping finds
 * three lines, recognition turns a line's first pixel into a logit, decoding reads the logits back.
 */
function ocrHarness(allLinesIn: Gate): WorkflowHarness {
  let recognising = 0;
  const harness = new WorkflowHarness()
    .handler('ocr/detect-preprocess', {
      inputs: ['image'],
      outputs: { pixels: {} },
      run: (v) => Promise.resolve({ pixels: tensor('pixels', [1, 3, 2, 2], new Array<number>(12).fill((v['image'] as Tensor).shape.length)) }),
    })
    .handler('ocr/crop-lines', {
      inputs: ['image', 'probs'],
      outputs: { lines: { list: true }, boxes: {} },
      run: () =>
        Promise.resolve({
          lines: [1, 2, 3].map((n) => tensor('line', [1, 3, 48, 1], new Array<number>(144).fill(n))),
          boxes: [[0, 0], [0, 10], [0, 20]],
        }),
    })
    .handler('ocr/ctc-decode', {
      inputs: ['logits'],
      outputs: { text: {} },
      run: (v) => Promise.resolve({ text: (v['logits'] as Tensor[]).map((t) => `line ${String((t.data as Float32Array)[0])}`) }),
    });
  const [det, rec] = TEST_MODELS;
  if (det === undefined || rec === undefined) throw new Error('test models missing');
  harness.model(det, () => Promise.resolve({ output: tensor('output', [1, 1, 2, 2], [0.9, 0.1, 0.8, 0.2]) }));
  harness.model(rec, async (call) => {
    recognising += 1;
    if (recognising === 3) allLinesIn.open();
    await allLinesIn.opened;
    const first = (call.inputs['x']?.data as Float32Array)[0] ?? 0;
    return { output: tensor('output', [1, 1, 97], new Array<number>(97).fill(first)) };
  });
  return harness;
}

describe('the OCR example workflow', () => {
  /*
   *   $request.image ──▶ detect-prep ──▶ detect ──▶ crop ──▶ read (forEach line) ──▶ decode ──▶ text
   *          └──────────────────────────────────────▲  └──────────────────────────────────────▶ boxes
   */
  it('detects, crops, reads every line concurrently and decodes, in order', async () => {
    const allLinesIn = new Gate();
    const harness = ocrHarness(allLinesIn);
    const text = readFileSync(join(packageRoot(), 'test', 'fixtures', 'workflows', 'valid', 'ocr.yaml'), 'utf8');
    const { plan, warnings } = loadWorkflow(text, { file: 'ocr.yaml', catalog: harness.catalog() });
    expect(warnings).toEqual([]);
    const result = await executeWorkflow(plan, { image: new Uint8Array([137, 80, 78, 71]) }, harness.services(), { debug: true, budget: RequestBudget.of({ timeoutMs: 5000 }) });
    expect(result.outputs).toEqual({ text: ['line 1', 'line 2', 'line 3'], boxes: [[0, 0], [0, 10], [0, 20]] });
    expect(harness.modelCalls.map((call) => [call.node, call.model])).toEqual([
      ['detect', 'ppocr-det'],
      ['read', 'ppocr-rec'],
      ['read', 'ppocr-rec'],
      ['read', 'ppocr-rec'],
    ]);
    expect(result.debug?.nodes['read']).toMatchObject({ status: 'ok', calls: 3, attempts: 3 });
  });
});
