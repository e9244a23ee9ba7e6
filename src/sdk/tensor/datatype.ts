/**
 * Open Inference Protocol datatypes. `BF16` is part of the protocol but has no onnxruntime-node tensor
 * type, so it is recognised only to be refused with a clear error.
 */
export const DATATYPES = [
  'BOOL',
  'UINT8',
  'UINT16',
  'UINT32',
  'UINT64',
  'INT8',
  'INT16',
  'INT32',
  'INT64',
  'FP16',
  'FP32',
  'FP64',
  'BYTES',
  'BF16',
] as const;

/** One of {@link DATATYPES}. */
export type Datatype = (typeof DATATYPES)[number];

/** The datatypes Sluice can carry end to end (every one but BF16). */
export type SupportedDatatype = Exclude<Datatype, 'BF16'>;

/** Datatypes whose elements are fixed-size numbers stored in a typed array. */
export type NumericDatatype = Exclude<SupportedDatatype, 'BYTES'>;

/** Typed array for each numeric datatype. FP16 is carried as raw IEEE-754 half bits; BOOL as 0/1 bytes. */
export interface TypedArrayByDatatype {
  BOOL: Uint8Array;
  UINT8: Uint8Array;
  UINT16: Uint16Array;
  UINT32: Uint32Array;
  UINT64: BigUint64Array;
  INT8: Int8Array;
  INT16: Int16Array;
  INT32: Int32Array;
  INT64: BigInt64Array;
  FP16: Uint16Array;
  FP32: Float32Array;
  FP64: Float64Array;
}

/** Any typed array a numeric tensor may hold. */
export type NumericTensorData = TypedArrayByDatatype[NumericDatatype];

type TypedArrayConstructor = {
  new (length: number): NumericTensorData;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): NumericTensorData;
  readonly BYTES_PER_ELEMENT: number;
};

/** Element constructor and size per numeric datatype. */
export const NUMERIC_DATATYPE_INFO: Readonly<
  Record<NumericDatatype, { readonly array: TypedArrayConstructor; readonly bytes: number; readonly integer: boolean }>
> = {
  BOOL: { array: Uint8Array, bytes: 1, integer: true },
  UINT8: { array: Uint8Array, bytes: 1, integer: true },
  UINT16: { array: Uint16Array, bytes: 2, integer: true },
  UINT32: { array: Uint32Array, bytes: 4, integer: true },
  UINT64: { array: BigUint64Array, bytes: 8, integer: true },
  INT8: { array: Int8Array, bytes: 1, integer: true },
  INT16: { array: Int16Array, bytes: 2, integer: true },
  INT32: { array: Int32Array, bytes: 4, integer: true },
  INT64: { array: BigInt64Array, bytes: 8, integer: true },
  FP16: { array: Uint16Array, bytes: 2, integer: false },
  FP32: { array: Float32Array, bytes: 4, integer: false },
  FP64: { array: Float64Array, bytes: 8, integer: false },
};

/** True for any of the {@link DATATYPES} names. */
export function isDatatype(value: unknown): value is Datatype {
  return typeof value === 'string' && (DATATYPES as readonly string[]).includes(value);
}

/** True for datatypes with a fixed element size. */
export function isNumericDatatype(value: Datatype): value is NumericDatatype {
  return value !== 'BYTES' && value !== 'BF16';
}
