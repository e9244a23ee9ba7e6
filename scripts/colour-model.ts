import { OnnxGraphBuilder } from './onnx/onnx-graph-builder.js';

/** Classes of the colour model, in output order. */
export const COLOUR_LABELS: readonly string[] = ['red', 'green', 'blue', 'white', 'black'];

/** Height and width of the colour model's input images, `[N, 3, 16, 16]`. */
export const COLOUR_IMAGE_SIZE = 16;

/**
 * Each class's signature: the sign of each channel's mean (red, green, blue) once pixels are normalised
 * to [-1, 1]. A solid colour's means equal its own signature exactly, and the dot product with any other
 * signature is smaller, so the class is predictable.
 */
const SIGNATURES: readonly (readonly [number, number, number])[] = [
  [1, -1, -1],
  [-1, 1, -1],
  [-1, -1, 1],
  [1, 1, 1],
  [-1, -1, -1],
];

/** Logits per unit of agreement between the channel means and a signature. */
const SHARPNESS = 2;

/**
 * A colour classifier whose answer can be worked out by hand: input `image` FP32 `[N, 3, 16, 16]`
 * (pixels normalised to [-1, 1]) → `GlobalAveragePool`, `Flatten` (the three channel means) → `Gemm`
 * with weights `2 × signature` → output `logits` FP32 `[N, 5]` for red, green, blue, white, black.
 * A solid red image scores 6 for red, 2 for black and -2 for the others.
 */
export function buildColourModel(): Uint8Array {
  const weights = new Float32Array(3 * SIGNATURES.length);
  SIGNATURES.forEach((signature, c) => {
    signature.forEach((sign, channel) => {
      weights[channel * SIGNATURES.length + c] = SHARPNESS * sign;
    });
  });
  return new OnnxGraphBuilder('colours', { docString: 'Sluice test model: colour class from the mean of each channel.' })
    .input('image', 'FP32', [-1, 3, COLOUR_IMAGE_SIZE, COLOUR_IMAGE_SIZE])
    .node('GlobalAveragePool', ['image'], ['means'])
    .node('Flatten', ['means'], ['features'], { axis: 1 })
    .initializer('signatures', 'FP32', [3, SIGNATURES.length], weights)
    .initializer('bias', 'FP32', [SIGNATURES.length], new Float32Array(SIGNATURES.length))
    .node('Gemm', ['features', 'signatures', 'bias'], ['logits'])
    .output('logits', 'FP32', [-1, SIGNATURES.length])
    .encode();
}
