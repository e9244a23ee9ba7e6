import { IRIS_FEATURES, IRIS_SPECIES, type IrisDataset } from './iris-dataset.js';
import { OnnxGraphBuilder } from './onnx/onnx-graph-builder.js';

const FEATURES = IRIS_FEATURES.length;
const CLASSES = IRIS_SPECIES.length;

/** Training settings; the defaults are what the committed demo model was trained with. */
export interface IrisTrainingOptions {
  /** Full-batch gradient-descent steps. Default 2000. */
  readonly iterations?: number;
  /** Step size on standardised features. Default 0.5. */
  readonly learningRate?: number;
}

/**
 * A softmax-regression classifier over raw measurements: `logits = x · weights + bias`. The feature
 * standardisation used in training is already folded into these numbers.
 */
export interface IrisClassifier {
  /** `4 × 3`, row-major (feature × class). */
  readonly weights: Float32Array;
  /** One per class. */
  readonly bias: Float32Array;
  /** Share of the training rows the exported float32 parameters classify correctly, in [0, 1]. */
  readonly trainingAccuracy: number;
}

/**
 * Trains softmax regression by full-batch gradient descent on standardised features, starting from
 * zeros, for a fixed number of steps: the result depends on the data and options alone.
 */
export function trainIris(dataset: IrisDataset, options: IrisTrainingOptions = {}): IrisClassifier {
  const iterations = options.iterations ?? 2000;
  const learningRate = options.learningRate ?? 0.5;
  const { mean, std } = featureMoments(dataset);
  const standardised = dataset.features.map((value, i) => (value - at(mean, i % FEATURES)) / at(std, i % FEATURES));

  const weights = new Float64Array(FEATURES * CLASSES);
  const bias = new Float64Array(CLASSES);
  for (let step = 0; step < iterations; step++) {
    const weightGradient = new Float64Array(FEATURES * CLASSES);
    const biasGradient = new Float64Array(CLASSES);
    for (let row = 0; row < dataset.rows; row++) {
      const target = at(dataset.classes, row);
      softmax(rowLogits(standardised, row, weights, bias)).forEach((probability, k) => {
        // d(cross-entropy)/d(logit) = probability − one-hot target, averaged over the batch.
        const error = (probability - (target === k ? 1 : 0)) / dataset.rows;
        biasGradient[k] = at(biasGradient, k) + error;
        for (let f = 0; f < FEATURES; f++) {
          const i = f * CLASSES + k;
          weightGradient[i] = at(weightGradient, i) + error * at(standardised, row * FEATURES + f);
        }
      });
    }
    for (let i = 0; i < weights.length; i++) weights[i] = at(weights, i) - learningRate * at(weightGradient, i);
    for (let k = 0; k < CLASSES; k++) bias[k] = at(bias, k) - learningRate * at(biasGradient, k);
  }

  // Fold the standardisation in: w·(x − μ)/σ + b = (w/σ)·x + (b − Σ w·μ/σ).
  const rawWeights = new Float32Array(FEATURES * CLASSES);
  const rawBias = new Float32Array(CLASSES);
  for (let k = 0; k < CLASSES; k++) {
    let shift = 0;
    for (let f = 0; f < FEATURES; f++) {
      const scaled = at(weights, f * CLASSES + k) / at(std, f);
      rawWeights[f * CLASSES + k] = scaled;
      shift += scaled * at(mean, f);
    }
    rawBias[k] = at(bias, k) - shift;
  }
  return { weights: rawWeights, bias: rawBias, trainingAccuracy: accuracy(dataset, rawWeights, rawBias) };
}

/**
 * The classifier as an ONNX model: input `input` FP32 `[N, 4]` (raw measurements in
 * {@link IRIS_FEATURES} order) → `probabilities` FP32 `[N, 3]` (softmax) and `label` INT64 `[N]` (the
 * most likely class index into {@link IRIS_SPECIES}).
 */
export function buildIrisModel(classifier: IrisClassifier): Uint8Array {
  const docString = 'Sluice demo: iris species from four flower measurements (softmax regression).';
  return new OnnxGraphBuilder('iris', { docString })
    .input('input', 'FP32', [-1, FEATURES])
    .initializer('weights', 'FP32', [FEATURES, CLASSES], classifier.weights)
    .initializer('bias', 'FP32', [CLASSES], classifier.bias)
    .node('MatMul', ['input', 'weights'], ['scores'])
    .node('Add', ['scores', 'bias'], ['logits'])
    .node('Softmax', ['logits'], ['probabilities'], { axis: 1 })
    .node('ArgMax', ['logits'], ['label'], { axis: 1, keepdims: 0 })
    .output('probabilities', 'FP32', [-1, CLASSES])
    .output('label', 'INT64', [-1])
    .encode();
}

function featureMoments(dataset: IrisDataset): { mean: Float64Array; std: Float64Array } {
  const mean = new Float64Array(FEATURES);
  const std = new Float64Array(FEATURES);
  for (let i = 0; i < dataset.features.length; i++) {
    const f = i % FEATURES;
    mean[f] = at(mean, f) + at(dataset.features, i) / dataset.rows;
  }
  for (let i = 0; i < dataset.features.length; i++) {
    const f = i % FEATURES;
    const deviation = at(dataset.features, i) - at(mean, f);
    std[f] = at(std, f) + (deviation * deviation) / dataset.rows;
  }
  return { mean, std: std.map(Math.sqrt) };
}

/** `x[row] · weights + bias`: one logit per class. */
function rowLogits(x: ArrayLike<number>, row: number, weights: ArrayLike<number>, bias: ArrayLike<number>): number[] {
  return Array.from({ length: CLASSES }, (_, k) => {
    let logit = at(bias, k);
    for (let f = 0; f < FEATURES; f++) logit += at(x, row * FEATURES + f) * at(weights, f * CLASSES + k);
    return logit;
  });
}

function softmax(logits: readonly number[]): number[] {
  const max = Math.max(...logits);
  const exponentials = logits.map((logit) => Math.exp(logit - max));
  const sum = exponentials.reduce((total, value) => total + value, 0);
  return exponentials.map((value) => value / sum);
}

function accuracy(dataset: IrisDataset, weights: Float32Array, bias: Float32Array): number {
  let correct = 0;
  for (let row = 0; row < dataset.rows; row++) {
    const logits = rowLogits(dataset.features, row, weights, bias);
    if (logits.indexOf(Math.max(...logits)) === at(dataset.classes, row)) correct++;
  }
  return correct / dataset.rows;
}

/** Indexed read for loops whose bounds already guarantee the index is in range. */
function at(values: ArrayLike<number>, index: number): number {
  return values[index] as number;
}
