import { describe, expect, it } from '@jest/globals';
import { ocrHandlers } from '../../../../plugins/ocr/index.js';

describe('ocrHandlers', () => {
  it('holds the three OCR node handlers under the ocr plugin name', () => {
    expect(ocrHandlers.map((handler) => handler.name)).toEqual(['ocr/detect-preprocess', 'ocr/crop-lines', 'ocr/ctc-decode']);
  });

  it('declares each handler’s inputs and which outputs are lists', () => {
    const declared = ocrHandlers.map((handler) => [
      handler.inputs,
      Object.entries(handler.outputs).map(([name, output]) => `${name}${output.list === true ? '[]' : ''}`),
    ]);
    expect(declared).toEqual([
      [['image'], ['x', 'scale']],
      [['image', 'probabilities'], ['lines[]', 'boxes[]']],
      [['probabilities'], ['lines[]', 'scores[]', 'text']],
    ]);
  });
});
