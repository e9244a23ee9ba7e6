import { CNN_CLASSES, CNN_INPUT_SHAPE } from './cnn-model.js';
import { OnnxGraphBuilder } from './onnx/onnx-graph-builder.js';
import { mulberry32, uniformFloat32 } from './prng.js';

/** Seed of the head-only model's weights. */
export const CNN_HEAD_SEED = 20261130;

/**
 * A model with the benchmark CNN's input and output and next to no compute between them: input `input`
 * FP32 `[N, 3, 32, 32]` → `GlobalAveragePool` → `Flatten` → `Gemm` (3 → 10) → output `output` FP32
 * `[N, 10]`. Served in the CNN's place, it shows what the request path alone costs with the CNN's
 * requests and answers.
 */
export function buildCnnHeadModel(seed: number = CNN_HEAD_SEED): Uint8Array {
  const [channels, height, width] = CNN_INPUT_SHAPE;
  const random = mulberry32(seed);
  return new OnnxGraphBuilder('cnn-head', { docString: 'The benchmark CNN\'s input and output with almost no compute between them.' })
    .input('input', 'FP32', [-1, channels, height, width])
    .node('GlobalAveragePool', ['input'], ['gap'])
    .node('Flatten', ['gap'], ['features'], { axis: 1 })
    .initializer('fc.weight', 'FP32', [channels, CNN_CLASSES], uniformFloat32(random, channels * CNN_CLASSES, Math.sqrt(6 / channels)))
    .initializer('fc.bias', 'FP32', [CNN_CLASSES], uniformFloat32(random, CNN_CLASSES, 1 / Math.sqrt(channels)))
    .node('Gemm', ['features', 'fc.weight', 'fc.bias'], ['output'])
    .output('output', 'FP32', [-1, CNN_CLASSES])
    .encode();
}
