import { OnnxGraphBuilder } from './onnx/onnx-graph-builder.js';
import { mulberry32, uniformFloat32 } from './prng.js';

/** Input of the benchmark CNN: 3-channel 32×32 images, `[N, 3, 32, 32]`. */
export const CNN_INPUT_SHAPE: readonly [channels: number, height: number, width: number] = [3, 32, 32];

/** Output channels of the CNN's 3×3 convolutions, in order. */
export const CNN_CONV_CHANNELS: readonly number[] = [32, 64, 128];

/** Which convolutions are followed by a 2×2 max-pool (halving height and width). */
export const CNN_POOL_AFTER: readonly boolean[] = [false, true, true];

/** Number of logits the CNN's classifier head produces. */
export const CNN_CLASSES = 10;

/** Seed of the committed benchmark CNN's weights. */
export const CNN_SEED = 20241203;

/** One 3×3 convolution (stride 1, padding 1) followed by ReLU and optionally a 2×2 max-pool. */
export interface ConvLayer {
  readonly inputChannels: number;
  readonly outputChannels: number;
  /** `[outputChannels, inputChannels, 3, 3]`, row-major (ONNX `Conv` weight layout). */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
  readonly pool: boolean;
}

/** The final fully connected layer: `logits = features · weights + bias`. */
export interface LinearLayer {
  readonly inputs: number;
  readonly outputs: number;
  /** `inputs × outputs`, row-major. */
  readonly weights: Float32Array;
  readonly bias: Float32Array;
}

/** All parameters of the CNN. */
export interface CnnParameters {
  readonly convs: readonly ConvLayer[];
  readonly head: LinearLayer;
}

/** Side of the square convolution kernels. */
export const CNN_KERNEL = 3;

/**
 * Random CNN parameters from a seeded PRNG. Weights are uniform in ±√(6 / fan-in) (He initialisation
 * for ReLU, fan-in = input channels × 3 × 3 for a convolution), biases uniform in ±1/√(fan-in); the
 * same seed always gives the same numbers.
 */
export function cnnParameters(seed: number = CNN_SEED): CnnParameters {
  const random = mulberry32(seed);
  const convs: ConvLayer[] = [];
  let inputChannels = CNN_INPUT_SHAPE[0];
  CNN_CONV_CHANNELS.forEach((outputChannels, index) => {
    const fanIn = inputChannels * CNN_KERNEL * CNN_KERNEL;
    const weights = uniformFloat32(random, outputChannels * fanIn, Math.sqrt(6 / fanIn));
    const bias = uniformFloat32(random, outputChannels, 1 / Math.sqrt(fanIn));
    convs.push({ inputChannels, outputChannels, weights, bias, pool: CNN_POOL_AFTER[index] ?? false });
    inputChannels = outputChannels;
  });
  const head: LinearLayer = {
    inputs: inputChannels,
    outputs: CNN_CLASSES,
    weights: uniformFloat32(random, inputChannels * CNN_CLASSES, Math.sqrt(6 / inputChannels)),
    bias: uniformFloat32(random, CNN_CLASSES, 1 / Math.sqrt(inputChannels)),
  };
  return { convs, head };
}

/**
 * The CNN as an ONNX model: input `input` FP32 `[N, 3, 32, 32]` → per layer `Conv` 3×3 (padding 1),
 * `Relu` and, where {@link ConvLayer.pool} says, `MaxPool` 2×2 → `GlobalAveragePool`, `Flatten` →
 * `Gemm` → output `output` FP32 `[N, 10]` (logits, no softmax).
 */
export function buildCnnModel(parameters: CnnParameters = cnnParameters()): Uint8Array {
  const [channels, height, width] = CNN_INPUT_SHAPE;
  const builder = new OnnxGraphBuilder('cnn', { docString: 'Sluice benchmark CNN with seeded random weights.' });
  builder.input('input', 'FP32', [-1, channels, height, width]);
  let current = 'input';
  parameters.convs.forEach((conv, index) => {
    builder
      .initializer(`conv${index}.weight`, 'FP32', [conv.outputChannels, conv.inputChannels, CNN_KERNEL, CNN_KERNEL], conv.weights)
      .initializer(`conv${index}.bias`, 'FP32', [conv.outputChannels], conv.bias)
      .node('Conv', [current, `conv${index}.weight`, `conv${index}.bias`], [`conv${index}.out`], {
        kernel_shape: [CNN_KERNEL, CNN_KERNEL],
        pads: [1, 1, 1, 1],
      })
      .node('Relu', [`conv${index}.out`], [`relu${index}`]);
    current = `relu${index}`;
    if (conv.pool) {
      builder.node('MaxPool', [current], [`pool${index}`], { kernel_shape: [2, 2], strides: [2, 2] });
      current = `pool${index}`;
    }
  });
  const { head } = parameters;
  return builder
    .node('GlobalAveragePool', [current], ['gap'])
    .node('Flatten', ['gap'], ['features'], { axis: 1 })
    .initializer('fc.weight', 'FP32', [head.inputs, head.outputs], head.weights)
    .initializer('fc.bias', 'FP32', [head.outputs], head.bias)
    .node('Gemm', ['features', 'fc.weight', 'fc.bias'], ['output'])
    .output('output', 'FP32', [-1, head.outputs])
    .encode();
}
