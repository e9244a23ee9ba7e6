import { SluiceError } from '../../sdk/errors/index.js';
import { flattenJsonData, inferJsonShape, tensorFromJsonValues, type Datatype, type Tensor } from '../../sdk/tensor/index.js';
import { formatShape, shapesCompatible } from './shape-compatibility.js';
import { tensorDataProblem } from '../../sdk/tensor/tensor-data-problem.js';
import { isTensor } from './tensor-value.js';

/** The model input a value is made into a tensor for. */
export interface ModelInputSpec {
  readonly name: string;
  readonly datatype: Datatype;
  readonly shape: readonly number[];
}

function padded(shape: readonly number[], rank: number): number[] {
  return [...Array.from({ length: Math.max(0, rank - shape.length) }, () => 1), ...shape];
}

/**
 * Makes the value bound to a model input into the tensor the model takes. A tensor passes as it is
 * (named after the input) when it holds what its datatype and shape say; a handler's tensor that does not
 * is refused here rather than by the model. Raw bytes become one BYTES element. JSON data (a number,
 * boolean, string or nested lists of them) becomes a tensor of the input's datatype whose shape is the
 * nesting of the lists; when the data has fewer dimensions than the input, leading dimensions of size 1
 * are added, so one instance fits a batched input. `where` names the node and input in errors.
 */
export function modelInputTensor(value: unknown, spec: ModelInputSpec, where: string): Tensor {
  if (isTensor(value)) {
    // A handler's tensor may say one thing and hold another; the model must not be the one to find out.
    const problem = tensorDataProblem(value);
    if (problem !== undefined) {
      throw new SluiceError('SLUICE_TENSOR_INVALID_VALUE', `${where}: the ${value.datatype} tensor it got does not hold what its datatype and shape say: ${problem}`);
    }
    return value.name === spec.name ? value : { ...value, name: spec.name };
  }
  const { datatype } = spec;
  if (datatype === 'BF16') {
    throw new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', `${where}: BF16 inputs cannot be made from JSON data; send a tensor`);
  }
  if (value instanceof Uint8Array) {
    if (datatype !== 'BYTES') {
      throw new SluiceError('SLUICE_TENSOR_DATATYPE_MISMATCH', `${where}: raw bytes only fit a BYTES input, and this input is ${datatype}`, {
        expected: datatype,
        got: 'BYTES',
      });
    }
    return { name: spec.name, datatype, shape: padded([], spec.shape.length), data: [value] };
  }
  if (Array.isArray(value) && value.some(isTensor)) {
    throw new SluiceError('SLUICE_TENSOR_INVALID_VALUE', `${where}: got a list of tensors, and a model input takes one tensor`);
  }
  const shape = padded(inferJsonShape(value, where), spec.shape.length);
  if (!shapesCompatible(shape, spec.shape)) {
    throw new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', `${where}: data of shape ${formatShape(shape)} does not fit ${formatShape(spec.shape)}`, {
      expected: spec.shape,
      got: shape,
    });
  }
  return tensorFromJsonValues(spec.name, datatype, shape, flattenJsonData(value, where), where);
}
