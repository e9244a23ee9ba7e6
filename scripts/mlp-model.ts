import { OnnxGraphBuilder } from './onnx/onnx-graph-builder.js';
import { mulberry32, uniformFloat32 } from './prng.js';

/** Layer widths of the benchmark MLP: 64 inputs, two hidden layers of 256, 10 logits. */
export const MLP_LAYER_SIZES: readonly number[] = [64, 256, 256, 10];

/** Seed of the committed benchmark MLP's weights. */
export const MLP_SEED = 20240917;

/** One dense layer: `y = x · weights + bias`. */
export interface DenseLayer {
  readonly inputs: number;
  readonly outputs: number;
  /** `inputs × outputs`, row-major. */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
}

/**
 * Random dense layers from a seeded PRNG. Weights are uniform in ±√(6 / fan-in) (He initialisation
 * for ReLU), biases uniform in ±1/√(fan-in); the same seed and sizes always give the same numbers.
 */
export function mlpLayers(seed: number = MLP_SEED, sizes: readonly number[] = MLP_LAYER_SIZES): DenseLayer[] {
  const random = mulberry32(seed);
  const layers: DenseLayer[] = [];
  for (let i = 0; i + 1 < sizes.length; i++) {
    const inputs = sizes[i] ?? 0;
    const outputs = sizes[i + 1] ?? 0;
    const weights = uniformFloat32(random, inputs * outputs, Math.sqrt(6 / inputs));
    const bias = uniformFloat32(random, outputs, 1 / Math.sqrt(inputs));
    layers.push({ inputs, outputs, weights, bias });
  }
  return layers;
}

/**
 * The layers as an ONNX model: input `input` FP32 `[N, first width]` → `MatMul`, `Add`, and `Relu`
 * between layers → output `output` FP32 `[N, last width]` (logits, no softmax).
 */
export function buildMlpModel(layers: readonly DenseLayer[] = mlpLayers()): Uint8Array {
  const first = layers[0];
  const last = layers[layers.length - 1];
  if (first === undefined || last === undefined) throw new Error('an MLP needs at least one layer');
  const builder = new OnnxGraphBuilder('mlp', { docString: 'Sluice benchmark MLP with seeded random weights.' });
  builder.input('input', 'FP32', [-1, first.inputs]);
  let current = 'input';
  layers.forEach((layer, index) => {
    const isLast = index === layers.length - 1;
    builder
      .initializer(`fc${index}.weight`, 'FP32', [layer.inputs, layer.outputs], layer.weights)
      .initializer(`fc${index}.bias`, 'FP32', [layer.outputs], layer.bias)
      .node('MatMul', [current, `fc${index}.weight`], [`fc${index}.matmul`])
      .node('Add', [`fc${index}.matmul`, `fc${index}.bias`], [isLast ? 'output' : `fc${index}.out`]);
    if (!isLast) builder.node('Relu', [`fc${index}.out`], [`relu${index}`]);
    current = `relu${index}`;
  });
  return builder.output('output', 'FP32', [-1, last.outputs]).encode();
}
