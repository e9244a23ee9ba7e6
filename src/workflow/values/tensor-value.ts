import { elementCount, isDatatype, NUMERIC_DATATYPE_INFO, type Tensor } from '../../common/tensor/index.js';

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
 * True for a tensor that holds what its datatype and shape say: the datatype's typed array (byte strings
 * for BYTES) with one element per position of the shape. A JSON object that only looks like a tensor
 * (its data a list of numbers) is not one.
 */
export function isWellFormedTensor(value: unknown): value is Tensor {
  if (!isTensor(value) || value.datatype === ('BF16' as string)) return false;
  if (!value.shape.every((dim) => Number.isSafeInteger(dim) && dim >= 0)) return false;
  const { data, datatype } = value;
  const fits = datatype === 'BYTES' ? Array.isArray(data) && data.every((element) => element instanceof Uint8Array) : data instanceof NUMERIC_DATATYPE_INFO[datatype].array;
  return fits && data.length === elementCount(value.shape);
}
