import { existsSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { ocrModelFiles } from '../../../../plugins/ocr/index.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/index.js';

describe('ocrModelFiles', () => {
  it('finds the detector, the recogniser and the character list on disk', () => {
    const files = ocrModelFiles();
    expect([files.detector, files.recognizer, files.characters].map((path) => existsSync(path))).toEqual([true, true, true]);
  });

  it('names a detector that takes x [N, 3, H, W] and gives one probability plane per image', async () => {
    const model = await new OnnxRuntime().load(ocrModelFiles().detector, { executionProviders: ['cpu'] });
    try {
      expect([model.inputs, model.outputs]).toEqual([
        [{ name: 'x', datatype: 'FP32', shape: [-1, 3, -1, -1] }],
        [{ name: 'sigmoid_0.tmp_0', datatype: 'FP32', shape: [-1, 1, -1, -1] }],
      ]);
    } finally {
      await model.release();
    }
  });

  it('names a recogniser that takes x [N, 3, 48, W] and gives 6625 class probabilities per step', async () => {
    const model = await new OnnxRuntime().load(ocrModelFiles().recognizer, { executionProviders: ['cpu'] });
    try {
      expect([model.inputs, model.outputs]).toEqual([
        [{ name: 'x', datatype: 'FP32', shape: [-1, 3, 48, -1] }],
        [{ name: 'softmax_11.tmp_0', datatype: 'FP32', shape: [-1, -1, 6625] }],
      ]);
    } finally {
      await model.release();
    }
  });

  it('names a recogniser that gives one step per 8 pixels of line width', async () => {
    const model = await new OnnxRuntime().load(ocrModelFiles().recognizer, { executionProviders: ['cpu'] });
    try {
      const x = { name: 'x', datatype: 'FP32' as const, shape: [2, 3, 48, 320], data: new Float32Array(2 * 3 * 48 * 320) };
      const [output] = await model.run([x]);
      expect(output!.shape).toEqual([2, 40, 6625]);
    } finally {
      await model.release();
    }
  });
});
