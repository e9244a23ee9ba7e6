import { SluiceError } from '../sdk/errors/index.js';
import { elementCount, float16OverflowIndex, type Tensor, type TensorSpec } from '../sdk/tensor/index.js';
import { shapeText } from '../sdk/tensor/shape-text.js';

function shapeMatches(expected: readonly number[], got: readonly number[]): boolean {
  return expected.length === got.length && expected.every((dim, i) => dim === -1 || dim === got[i]);
}

/**
 * The largest dimension a tensor may have: onnxruntime-node refuses a dimension over 2^32 − 1 when it builds
 * the tensor, so a larger one (possible with zero elements, as in `[0, 2^53 − 1]`) is refused here, as a bad
 * request, rather than failing the run.
 */
export const MAX_TENSOR_DIMENSION = 4_294_967_295;

/** The index of the first dimension of `shape` over {@link MAX_TENSOR_DIMENSION}, or -1. */
function oversizedDimension(shape: readonly number[]): number {
  for (let i = 0; i < shape.length; i++) {
    if ((shape[i] ?? 0) > MAX_TENSOR_DIMENSION) return i;
  }
  return -1;
}

/**
 * Refuses FP32 data for an FP16 input (which an executor that accepts it rounds to halves) holding a finite
 * value beyond FP16's range, which would reach the model as an infinity no one sent.
 */
function checkFloat16Range(model: string, tensor: Tensor): void {
  const data = tensor.data as Float32Array;
  const index = float16OverflowIndex(data);
  if (index === -1) return;
  const value = data[index] ?? 0;
  throw new SluiceError(
    'SLUICE_TENSOR_INVALID_VALUE',
    `input \`${tensor.name}\` of model \`${model}\` takes FP16: FP32 element ${index} is ${value}, too large to round into FP16's range [-65504, 65504] (a magnitude of 65520 or more), and would become an infinity; send values within that range`,
    { input: tensor.name, index, expected: 'a number that rounds into [-65504, 65504] for FP16' },
  );
}

function dataLength(tensor: Tensor): number {
  return tensor.data.length;
}

/**
 * Checks request tensors against a model's declared inputs before the runtime sees them: every input
 * present exactly once, no unknown names, matching datatype, matching shape (`-1` = any size), no dimension
 * over {@link MAX_TENSOR_DIMENSION}, data length equal to the shape's element count, and values that
 * `checkValues` (the executor's runtime) takes. Throws a {@link SluiceError} that shows expected vs. got.
 */
export function validateInputs(
  model: string,
  specs: readonly TensorSpec[],
  tensors: readonly Tensor[],
  accepts: (spec: TensorSpec, datatype: Tensor['datatype']) => boolean = (spec, datatype) => spec.datatype === datatype,
  checkValues?: (tensor: Tensor) => void,
): void {
  // Models have a handful of inputs: scanning beats building a map per request.
  const seen: string[] = [];
  for (const tensor of tensors) {
    const spec = specs.find((s) => s.name === tensor.name);
    if (spec === undefined) {
      throw new SluiceError(
        'SLUICE_TENSOR_UNKNOWN_INPUT',
        `model \`${model}\` has no input \`${tensor.name}\`; its inputs are: ${specs.map((s) => s.name).join(', ')}`,
        { input: tensor.name, expected: specs.map((s) => s.name) },
      );
    }
    if (seen.includes(tensor.name)) {
      throw new SluiceError('SLUICE_REQUEST_INVALID', `input \`${tensor.name}\` is given more than once; send each input once`);
    }
    seen.push(tensor.name);
    if (!accepts(spec, tensor.datatype)) {
      throw new SluiceError(
        'SLUICE_TENSOR_DATATYPE_MISMATCH',
        `input \`${tensor.name}\` of model \`${model}\` must be ${spec.datatype}, got ${tensor.datatype}`,
        { input: tensor.name, expected: spec.datatype, got: tensor.datatype },
      );
    }
    if (!shapeMatches(spec.shape, tensor.shape)) {
      throw new SluiceError(
        'SLUICE_TENSOR_SHAPE_MISMATCH',
        `input \`${tensor.name}\` of model \`${model}\` must have shape ${shapeText(spec.shape)} (-1 = any size), got ${shapeText(tensor.shape)}`,
        { input: tensor.name, expected: spec.shape, got: tensor.shape },
      );
    }
    const oversized = oversizedDimension(tensor.shape);
    if (oversized !== -1) {
      throw new SluiceError(
        'SLUICE_TENSOR_SHAPE_MISMATCH',
        `input \`${tensor.name}\` of model \`${model}\` has shape ${shapeText(tensor.shape)}: dimension ${oversized} is over ${MAX_TENSOR_DIMENSION}, the largest a dimension may be`,
        { input: tensor.name, dimension: oversized, max: MAX_TENSOR_DIMENSION, got: tensor.shape },
      );
    }
    const expected = elementCount(tensor.shape);
    if (dataLength(tensor) !== expected) {
      throw new SluiceError(
        'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        `input \`${tensor.name}\`: shape ${shapeText(tensor.shape)} needs ${expected} values, got ${dataLength(tensor)}`,
        { input: tensor.name, expected, got: dataLength(tensor) },
      );
    }
    if (spec.datatype === 'FP16' && tensor.datatype === 'FP32') checkFloat16Range(model, tensor);
    checkValues?.(tensor);
  }
  for (const spec of specs) {
    if (!seen.includes(spec.name)) {
      throw new SluiceError(
        'SLUICE_TENSOR_MISSING_INPUT',
        `model \`${model}\` needs input \`${spec.name}\` (${spec.datatype} ${shapeText(spec.shape)}), which the request does not give`,
        { input: spec.name },
      );
    }
  }
}

/** Checks that every requested output exists; returns the names in request order. */
export function validateOutputNames(model: string, specs: readonly TensorSpec[], names: readonly string[]): readonly string[] {
  for (const name of names) {
    if (!specs.some((spec) => spec.name === name)) {
      throw new SluiceError(
        'SLUICE_TENSOR_UNKNOWN_OUTPUT',
        `model \`${model}\` has no output \`${name}\`; its outputs are: ${specs.map((s) => s.name).join(', ')}`,
        { output: name, expected: specs.map((s) => s.name) },
      );
    }
  }
  return names;
}
