import { isDatatype, type Tensor } from '../../sdk/tensor/index.js';
import { tensorDataProblem } from '../../sdk/tensor/tensor-data-problem.js';

/** True when a workflow value is a tensor (`{ name, datatype, shape, data }`), not plain data. */
export function isTensor(value: unknown): value is Tensor {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<keyof Tensor, unknown>>;
  return (
    typeof candidate.name === 'string' &&
    isDatatype(candidate.datatype) &&
    Array.isArray(candidate.shape) &&
    (ArrayBuffer.isView(candidate.data) || Array.isArray(candidate.data))
  );
}

/**
 * True for a tensor that holds what its datatype and shape say (`tensorDataProblem`). A JSON object
 * that only looks like a tensor (its data a list of numbers) is not one.
 */
export function isWellFormedTensor(value: unknown): value is Tensor {
  return isTensor(value) && tensorDataProblem(value) === undefined;
}
