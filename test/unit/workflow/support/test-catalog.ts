import type { ModelDescription } from '../../../../src/sdk/index.js';
import { createStaticCatalog, type HandlerDescription, type WorkflowCatalog, type WorkflowSignature } from '../../../../src/workflow/index.js';

/** The models the workflow tests refer to: an OCR pair, a classifier with two versions, an INT64 model. */
export const TEST_MODELS: readonly ModelDescription[] = [
  {
    name: 'ppocr-det',
    version: '1',
    inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 3, -1, -1] }],
    outputs: [{ name: 'output', datatype: 'FP32', shape: [-1, 1, -1, -1] }],
  },
  {
    name: 'ppocr-rec',
    version: '1',
    inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 3, 48, -1] }],
    outputs: [{ name: 'output', datatype: 'FP32', shape: [-1, -1, 97] }],
  },
  { name: 'classifier', version: '1', inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 4] }], outputs: [{ name: 'probs', datatype: 'FP32', shape: [-1, 3] }] },
  { name: 'classifier', version: '2', inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 4] }], outputs: [{ name: 'probs', datatype: 'FP32', shape: [-1, 3] }] },
  { name: 'counter', version: '1', inputs: [{ name: 'ids', datatype: 'INT64', shape: [-1] }], outputs: [{ name: 'count', datatype: 'INT64', shape: [-1] }] },
  { name: 'embedder', version: '1', inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 3] }], outputs: [{ name: 'vector', datatype: 'FP32', shape: [-1, 8] }] },
];

/** The handlers the workflow tests refer to. */
export const TEST_HANDLERS: readonly HandlerDescription[] = [
  { name: 'ocr/detect-preprocess', inputs: ['image'], outputs: { pixels: {} } },
  { name: 'ocr/crop-lines', inputs: ['image', 'probs'], outputs: { lines: { list: true }, boxes: {} } },
  { name: 'ocr/ctc-decode', inputs: ['logits'], outputs: { text: {} } },
  { name: 'text/upper', inputs: ['text'], outputs: { text: {} } },
];

/** The registered workflows the workflow tests call. */
export const TEST_WORKFLOWS: readonly WorkflowSignature[] = [{ name: 'shout', inputs: { text: { type: 'string', optional: false } }, outputs: ['text'] }];

/** A catalog over {@link TEST_MODELS}, {@link TEST_HANDLERS} and {@link TEST_WORKFLOWS}. */
export function testCatalog(): WorkflowCatalog {
  return createStaticCatalog({ models: TEST_MODELS, handlers: TEST_HANDLERS, workflows: TEST_WORKFLOWS });
}
