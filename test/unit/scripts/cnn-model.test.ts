import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { type LoadedModel } from '../../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../src/runtime/onnx/onnx-runtime.js';
import { CNN_CLASSES, CNN_INPUT_SHAPE, CNN_KERNEL, cnnParameters, type CnnParameters, type ConvLayer } from '../../../scripts/cnn-model.js';
import { mulberry32, uniformFloat32 } from '../../../scripts/prng.js';

/** One image through a 3×3 convolution (padding 1), ReLU and the optional 2×2 max-pool, in float64. */
function convBlock(layer: ConvLayer, input: Float64Array, size: number): { output: Float64Array; size: number } {
  const conv = new Float64Array(layer.outputChannels * size * size);
  for (let out = 0; out < layer.outputChannels; out++) {
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        let sum = layer.bias[out]!;
        for (let inC = 0; inC < layer.inputChannels; inC++) {
          for (let ky = 0; ky < CNN_KERNEL; ky++) {
            const iy = y + ky - 1;
            if (iy < 0 || iy >= size) continue;
            for (let kx = 0; kx < CNN_KERNEL; kx++) {
              const ix = x + kx - 1;
              if (ix < 0 || ix >= size) continue;
              const weight = layer.weights[((out * layer.inputChannels + inC) * CNN_KERNEL + ky) * CNN_KERNEL + kx]!;
              sum += weight * input[(inC * size + iy) * size + ix]!;
            }
          }
        }
        conv[(out * size + y) * size + x] = Math.max(0, sum);
      }
    }
  }
  if (!layer.pool) return { output: conv, size };
  const half = size / 2;
  const pooled = new Float64Array(layer.outputChannels * half * half);
  for (let c = 0; c < layer.outputChannels; c++) {
    for (let y = 0; y < half; y++) {
      for (let x = 0; x < half; x++) {
        const at = (dy: number, dx: number): number => conv[(c * size + 2 * y + dy) * size + 2 * x + dx]!;
        pooled[(c * half + y) * half + x] = Math.max(at(0, 0), at(0, 1), at(1, 0), at(1, 1));
      }
    }
  }
  return { output: pooled, size: half };
}

/** The CNN computed directly in float64 for one image: the reference the ONNX graph must agree with. */
function forward(parameters: CnnParameters, image: Float32Array): Float64Array {
  let activations: Float64Array = Float64Array.from(image);
  let size = CNN_INPUT_SHAPE[1];
  for (const layer of parameters.convs) ({ output: activations, size } = convBlock(layer, activations, size));
  const { head } = parameters;
  const features = Array.from({ length: head.inputs }, (_, c) => {
    let sum = 0;
    for (let i = 0; i < size * size; i++) sum += activations[c * size * size + i]!;
    return sum / (size * size);
  });
  return Float64Array.from({ length: head.outputs }, (_, out) =>
    features.reduce((sum, feature, i) => sum + feature * head.weights[i * head.outputs + out]!, head.bias[out]!),
  );
}

describe('cnnParameters', () => {
  it('chains 3 → 32 → 64 → 128 channels into a 128 → 10 head', () => {
    const { convs, head } = cnnParameters();
    expect(convs.map((conv) => [conv.inputChannels, conv.outputChannels])).toEqual([
      [3, 32],
      [32, 64],
      [64, 128],
    ]);
    expect([head.inputs, head.outputs]).toEqual([128, CNN_CLASSES]);
  });

  it('sizes every weight tensor for its layer', () => {
    const { convs, head } = cnnParameters();
    for (const conv of convs) {
      expect(conv.weights).toHaveLength(conv.outputChannels * conv.inputChannels * CNN_KERNEL * CNN_KERNEL);
      expect(conv.bias).toHaveLength(conv.outputChannels);
    }
    expect(head.weights).toHaveLength(head.inputs * head.outputs);
  });

  it('gives the same weights for the same seed and different ones for another', () => {
    expect(cnnParameters(5)).toEqual(cnnParameters(5));
    expect(cnnParameters(5).convs[0]?.weights).not.toEqual(cnnParameters(6).convs[0]?.weights);
  });

  it('keeps convolution weights within the He limit √(6 / fan-in)', () => {
    for (const conv of cnnParameters().convs) {
      const limit = Math.sqrt(6 / (conv.inputChannels * CNN_KERNEL * CNN_KERNEL));
      expect(Math.max(...conv.weights.map(Math.abs))).toBeLessThanOrEqual(limit);
    }
  });
});

describe('the committed CNN model', () => {
  const rows = 3;
  const imageSize = CNN_INPUT_SHAPE[0] * CNN_INPUT_SHAPE[1] * CNN_INPUT_SHAPE[2];
  const input = uniformFloat32(mulberry32(7), rows * imageSize, 1);
  const tensor = { name: 'input', datatype: 'FP32' as const, shape: [rows, ...CNN_INPUT_SHAPE], data: input };
  let model: LoadedModel;

  beforeAll(async () => {
    model = await new OnnxRuntime().load(join(packageRoot(), 'model-store', 'cnn', 'model.onnx'), {});
  });

  afterAll(async () => {
    await model.release();
  });

  it('declares input [-1, 3, 32, 32] and output [-1, 10]', () => {
    expect(model.inputs).toEqual([{ name: 'input', datatype: 'FP32', shape: [-1, 3, 32, 32] }]);
    expect(model.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [-1, 10] }]);
  });

  it('returns [batch, 10] logits', async () => {
    const [output] = await model.run([tensor]);
    expect(output?.datatype).toBe('FP32');
    expect(output?.shape).toEqual([rows, 10]);
    expect(output?.data).toHaveLength(rows * 10);
  });

  it('gives each image the logits it gets alone', async () => {
    const [batch] = await model.run([tensor]);
    const [single] = await model.run([{ ...tensor, shape: [1, ...CNN_INPUT_SHAPE], data: input.slice(imageSize, 2 * imageSize) }]);
    Array.from(single!.data as Float32Array).forEach((value, index) => {
      expect(value).toBeCloseTo((batch!.data as Float32Array)[10 + index]!, 4);
    });
  });

  it('computes the CNN of the seeded weights', async () => {
    const [output] = await model.run([{ ...tensor, shape: [1, ...CNN_INPUT_SHAPE], data: input.slice(0, imageSize) }]);
    const expected = forward(cnnParameters(), input.slice(0, imageSize));
    Array.from(output!.data as Float32Array).forEach((value, index) => {
      expect(value).toBeCloseTo(expected[index]!, 3);
    });
  });
});
