import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { type LoadedModel } from '../../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../src/runtime/onnx/onnx-runtime.js';
import { MLP_LAYER_SIZES, MLP_SEED, mlpLayers, type DenseLayer } from '../../../scripts/mlp-model.js';
import { mulberry32, uniformFloat32 } from '../../../scripts/prng.js';

/** The MLP computed directly in float64: the reference the ONNX graph must agree with. */
function forward(layers: readonly DenseLayer[], input: Float32Array, rows: number): Float64Array {
  let activations = Float64Array.from(input);
  layers.forEach((layer, index) => {
    const next = new Float64Array(rows * layer.outputs);
    for (let row = 0; row < rows; row++) {
      for (let out = 0; out < layer.outputs; out++) {
        let sum = layer.bias[out]!;
        for (let i = 0; i < layer.inputs; i++) sum += activations[row * layer.inputs + i]! * layer.weights[i * layer.outputs + out]!;
        next[row * layer.outputs + out] = index < layers.length - 1 ? Math.max(0, sum) : sum;
      }
    }
    activations = next;
  });
  return activations;
}

describe('mlpLayers', () => {
  it('builds 64→256→256→10 layers', () => {
    expect(mlpLayers().map((layer) => [layer.inputs, layer.outputs])).toEqual([
      [64, 256],
      [256, 256],
      [256, 10],
    ]);
  });

  it('gives the same weights for the same seed', () => {
    expect(mlpLayers(5)).toEqual(mlpLayers(5));
  });

  it('gives different weights for a different seed', () => {
    expect(mlpLayers(5)[0]?.weights).not.toEqual(mlpLayers(6)[0]?.weights);
  });

  it('keeps weights within the He limit √(6 / fan-in)', () => {
    for (const layer of mlpLayers()) {
      const limit = Math.sqrt(6 / layer.inputs);
      expect(Math.max(...layer.weights.map(Math.abs))).toBeLessThanOrEqual(limit);
    }
  });
});

describe('the committed MLP model', () => {
  const rows = 5;
  const input = uniformFloat32(mulberry32(99), rows * 64, 1);
  let model: LoadedModel;

  beforeAll(async () => {
    model = await new OnnxRuntime().load(join(packageRoot(), 'model-store', 'mlp', 'model.onnx'), {});
  });

  afterAll(async () => {
    await model.release();
  });

  it('declares input [-1, 64] and output [-1, 10]', () => {
    expect(model.inputs).toEqual([{ name: 'input', datatype: 'FP32', shape: [-1, MLP_LAYER_SIZES[0]] }]);
    expect(model.outputs).toEqual([{ name: 'output', datatype: 'FP32', shape: [-1, 10] }]);
  });

  it('returns [batch, 10] logits', async () => {
    const [output] = await model.run([{ name: 'input', datatype: 'FP32', shape: [rows, 64], data: input }]);
    expect(output?.shape).toEqual([rows, 10]);
    expect(output?.data).toHaveLength(rows * 10);
  });

  it('gives the same logits for the same input', async () => {
    const [first] = await model.run([{ name: 'input', datatype: 'FP32', shape: [rows, 64], data: input }]);
    const [second] = await model.run([{ name: 'input', datatype: 'FP32', shape: [rows, 64], data: input }]);
    expect(second?.data).toEqual(first?.data);
  });

  it('computes the MLP of the seeded weights', async () => {
    const [output] = await model.run([{ name: 'input', datatype: 'FP32', shape: [rows, 64], data: input }]);
    const expected = forward(mlpLayers(MLP_SEED), input, rows);
    Array.from(output!.data as Float32Array).forEach((value, index) => {
      expect(value).toBeCloseTo(expected[index]!, 3);
    });
  });
});
