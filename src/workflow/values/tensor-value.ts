import { isDatatype, type Tensor } from '../../common/tensor/index.js';

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
