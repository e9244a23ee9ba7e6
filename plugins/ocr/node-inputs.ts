import { isNumericDatatype, type NumericTensorData, type Tensor } from '../../src/sdk/index.js';
import { invalidNodeInput } from './node-input-error.js';

function isTensor(value: unknown): value is Tensor {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Tensor>;
  return typeof candidate.datatype === 'string' && Array.isArray(candidate.shape) && candidate.data !== undefined;
}

/**
 * Image file bytes from a node input: raw bytes, or a BYTES tensor holding exactly one element (what an
 * inference request carries an uploaded file as).
 */
export function readImageBytes(handler: string, input: string, value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (isTensor(value) && value.datatype === 'BYTES' && value.data.length === 1) {
    const [bytes] = value.data as readonly Uint8Array[];
    if (bytes !== undefined) return bytes;
  }
  throw invalidNodeInput(handler, input, 'must be image file bytes (PNG or JPEG) or a BYTES tensor with one element');
}

/** A numeric tensor input of one of `datatypes` and `rank` dimensions. */
export function readNumericTensor(
  handler: string,
  input: string,
  value: unknown,
  rank: number,
  datatypes: readonly Tensor['datatype'][],
): Tensor & { readonly data: NumericTensorData } {
  if (!isTensor(value)) throw invalidNodeInput(handler, input, 'must be a tensor');
  if (!isNumericDatatype(value.datatype) || !datatypes.includes(value.datatype)) {
    throw invalidNodeInput(handler, input, `must be ${datatypes.join(' or ')}, not ${value.datatype}`);
  }
  if (value.shape.length !== rank) {
    throw invalidNodeInput(handler, input, `must have ${rank} dimensions, not shape [${value.shape.join(', ')}]`);
  }
  return value as Tensor & { readonly data: NumericTensorData };
}

/** Tensors from an input that is one tensor or a list of them (what a `forEach` collects). */
export function tensorsOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [value];
}
