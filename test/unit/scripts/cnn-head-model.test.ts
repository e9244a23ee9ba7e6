import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadedModel } from '../../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../src/runtime/onnx/onnx-runtime.js';
import { CNN_HEAD_SEED, buildCnnHeadModel } from '../../../scripts/cnn-head-model.js';
import { CNN_CLASSES, CNN_INPUT_SHAPE } from '../../../scripts/cnn-model.js';
import { mulberry32, uniformFloat32 } from '../../../scripts/prng.js';

describe('the CNN head-only model', () => {
  const [channels, height, width] = CNN_INPUT_SHAPE;
  const pixels = height * width;
  const image = uniformFloat32(mulberry32(11), channels * pixels, 1);
  let dir: string;
  let model: LoadedModel;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-cnn-head-'));
    await writeFile(join(dir, 'model.onnx'), buildCnnHeadModel());
    model = await new OnnxRuntime().load(join(dir, 'model.onnx'), {});
  });

  afterAll(async () => {
    await model.release();
    await rm(dir, { recursive: true, force: true });
  });

  it("declares the CNN's input and output", () => {
    expect(model.inputs).toEqual([{ name: 'input', datatype: 'FP32', shape: [-1, channels, height, width] }]);
    expect(model.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [-1, CNN_CLASSES] }]);
  });

  it('maps each channel mean through its seeded 3 → 10 layer', async () => {
    const [output] = await model.run([{ name: 'input', datatype: 'FP32', shape: [1, channels, height, width], data: image }]);
    const random = mulberry32(CNN_HEAD_SEED);
    const weights = uniformFloat32(random, channels * CNN_CLASSES, Math.sqrt(6 / channels));
    const bias = uniformFloat32(random, CNN_CLASSES, 1 / Math.sqrt(channels));
    const means = Array.from({ length: channels }, (_, c) => image.subarray(c * pixels, (c + 1) * pixels).reduce((sum, v) => sum + v, 0) / pixels);
    expect(output?.shape).toEqual([1, CNN_CLASSES]);
    Array.from(output!.data as Float32Array).forEach((value, out) => {
      expect(value).toBeCloseTo(means.reduce((sum, mean, c) => sum + mean * weights[c * CNN_CLASSES + out]!, bias[out]!), 4);
    });
  });
});
