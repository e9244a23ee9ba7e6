import type { Datatype, NumericTensorData, SupportedDatatype } from './datatype.js';

/** Elements of a BYTES tensor: one byte string per element. */
export type BytesTensorData = readonly Uint8Array[];

/** The element storage of a tensor: a typed array for numbers, a list of byte strings for BYTES. */
export type TensorData = NumericTensorData | BytesTensorData;

/**
 * A tensor as it travels through Sluice: OIP datatype names, a concrete shape, row-major data.
 * JSON appears only at the API edges.
 */
export interface Tensor {
  readonly name: string;
  readonly datatype: SupportedDatatype;
  readonly shape: readonly number[];
  readonly data: TensorData;
}

/** What a model declares for one input or output; `-1` marks a variable dimension. */
export interface TensorSpec {
  readonly name: string;
  readonly datatype: Datatype;
  readonly shape: readonly number[];
}

/** Number of elements for a concrete shape (1 for a scalar; 0 when any dimension is 0). */
export function elementCount(shape: readonly number[]): number {
  let count = 1;
  for (const dim of shape) count *= dim;
  // Dimensions whose product overflows to Infinity before a 0 is reached multiply to NaN, not 0.
  return Number.isNaN(count) ? 0 : count;
}
