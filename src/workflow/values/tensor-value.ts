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

function describeData(data: unknown): string {
  if (Array.isArray(data)) return 'a list';
  return ArrayBuffer.isView(data) ? `a ${data.constructor.name}` : typeof data;
}

/**
 * What keeps `tensor` from holding what its datatype and shape say (`its data is a Float64Array, not a
 * Float32Array`), or undefined when it does: every dimension a size, the datatype's typed array (byte
 * strings for BYTES), one element per position of the shape. BF16, which no tensor can carry, always has one.
 */
export function tensorDataProblem(tensor: Tensor): string | undefined {
  const { data, datatype, shape } = tensor;
  if (datatype === ('BF16' as string)) return 'BF16 tensors are not supported';
  const dims = `[${shape.join(',')}]`;
  if (!shape.every((dim) => Number.isSafeInteger(dim) && dim >= 0)) return `its shape ${dims} holds a dimension that is not a size (a whole number, 0 or more)`;
  if (datatype === 'BYTES') {
    if (!Array.isArray(data) || !data.every((element) => element instanceof Uint8Array)) return 'its data is not a list of byte strings';
  } else {
    const array = NUMERIC_DATATYPE_INFO[datatype].array;
    if (!(data instanceof array)) return `its data is ${describeData(data)}, not a ${array.name}`;
  }
  const count = elementCount(shape);
  return data.length === count ? undefined : `its shape ${dims} needs ${count} values, and its data holds ${data.length}`;
}

/**
 * True for a tensor that holds what its datatype and shape say ({@link tensorDataProblem}). A JSON object
 * that only looks like a tensor (its data a list of numbers) is not one.
 */
export function isWellFormedTensor(value: unknown): value is Tensor {
  return isTensor(value) && tensorDataProblem(value) === undefined;
}
