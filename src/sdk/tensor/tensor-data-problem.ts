import { NUMERIC_DATATYPE_INFO, type NumericDatatype } from './datatype.js';
import { shapeText } from './shape-text.js';
import { elementCount, type Tensor } from './tensor.js';

function describeData(data: unknown): string {
  if (Array.isArray(data)) return 'a list';
  if (data === null) return 'null';
  return ArrayBuffer.isView(data) ? `a ${data.constructor.name}` : typeof data;
}

/** True when every dimension of `shape` is a size (a whole number, 0 or more). */
function allSizes(shape: readonly unknown[]): boolean {
  for (const dim of shape) if (typeof dim !== 'number' || !Number.isSafeInteger(dim) || dim < 0) return false;
  return true;
}

/** True when every element of a BYTES tensor's data is a byte string. */
function allByteStrings(data: readonly unknown[]): boolean {
  for (const element of data) if (!(element instanceof Uint8Array)) return false;
  return true;
}

/** The element table of `datatype` when it is a numeric datatype (own keys only: `constructor` is none). */
function numericInfo(datatype: unknown): (typeof NUMERIC_DATATYPE_INFO)[NumericDatatype] | undefined {
  return typeof datatype === 'string' && Object.hasOwn(NUMERIC_DATATYPE_INFO, datatype) ? NUMERIC_DATATYPE_INFO[datatype as NumericDatatype] : undefined;
}

/**
 * What keeps `tensor` from holding what its datatype and shape say (`its data is a Float64Array, not a
 * Float32Array`), or undefined when it does: a datatype Sluice carries (BF16 is not one), every dimension
 * a size, the datatype's typed array (a list of byte strings for BYTES), one element per position of the
 * shape. For a value made by code rather than decoded from a request (a handler's tensors): it reads the
 * fields without trusting their types, and allocates nothing when the tensor is well formed.
 */
export function tensorDataProblem(tensor: Tensor): string | undefined {
  const { data, datatype, shape } = tensor as { readonly data: unknown; readonly datatype: unknown; readonly shape: unknown };
  if (datatype === 'BF16') return 'BF16 tensors are not supported';
  const info = numericInfo(datatype);
  if (datatype !== 'BYTES' && info === undefined) return `its datatype ${typeof datatype === 'string' ? JSON.stringify(datatype) : describeData(datatype)} is not one Sluice carries`;
  if (!Array.isArray(shape)) return 'its shape is not a list of dimensions';
  if (!allSizes(shape)) return `its shape ${shapeText(shape as number[])} holds a dimension that is not a size (a whole number, 0 or more)`;
  let length: number;
  if (info === undefined) {
    if (!Array.isArray(data) || !allByteStrings(data)) return 'its data is not a list of byte strings';
    length = data.length;
  } else {
    if (!(data instanceof info.array)) return `its data is ${describeData(data)}, not a ${info.array.name}`;
    length = data.length;
  }
  const count = elementCount(shape as number[]);
  return length === count ? undefined : `its shape ${shapeText(shape as number[])} needs ${count} values, and its data holds ${length}`;
}
