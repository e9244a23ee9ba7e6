import { SluiceError } from '../errors/index.js';
import { utf8BytesElements } from './bytes-elements.js';
import { NUMERIC_DATATYPE_INFO, type NumericDatatype, type SupportedDatatype } from './datatype.js';
import { float16BitsToNumber, float32ToFloat16Bits } from './float16.js';
import { shapeText } from './shape-text.js';
import { elementCount, type Tensor, type TensorData } from './tensor.js';
import { shortenedText } from '../text/shortened-text.js';
import { checkSpelledOutSize } from './encoded-values-limit.js';

/** A JSON scalar as it appears in tensor data. */
export type JsonScalar = number | boolean | string;

/** Deepest nesting accepted in JSON tensor data; real tensors rarely exceed rank 8. */
const MAX_JSON_RANK = 32;

type IntegerDatatype = Exclude<NumericDatatype, 'BOOL' | 'FP16' | 'FP32' | 'FP64'>;

const INTEGER_RANGES: Readonly<Record<IntegerDatatype, readonly [number, number]>> = {
  INT8: [-128, 127],
  INT16: [-32768, 32767],
  INT32: [-2147483648, 2147483647],
  UINT8: [0, 255],
  UINT16: [0, 65535],
  UINT32: [0, 4294967295],
  INT64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  UINT64: [0, Number.MAX_SAFE_INTEGER],
};

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shortenedText(value));
  if (Array.isArray(value)) return 'a list';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * The shape of nested JSON arrays (`[[1,2],[3,4]]` → `[2,2]`, a scalar → `[]`), requiring every row of a
 * level to have the same length so the data is a proper tensor.
 */
export function inferJsonShape(data: unknown, where: string): number[] {
  const shape: number[] = [];
  let level: unknown = data;
  while (Array.isArray(level)) {
    shape.push(level.length);
    if (shape.length > MAX_JSON_RANK) {
      throw new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', `${where}: data is nested deeper than ${MAX_JSON_RANK} levels`);
    }
    if (level.length === 0) break;
    level = level[0];
  }
  if (shape.length > 0) checkRectangular(data, shape, 0, where, []);
  return shape;
}

function checkRectangular(value: unknown, shape: readonly number[], depth: number, where: string, index: readonly number[]): void {
  const expected = shape[depth] ?? 0;
  if (!Array.isArray(value) || value.length !== expected) {
    const got = Array.isArray(value) ? `${value.length} values` : describe(value);
    throw new SluiceError(
      'SLUICE_TENSOR_SHAPE_MISMATCH',
      `${where}: ragged data, row [${index.join(',')}] has ${got} but ${expected} were expected; every row must have the same length`,
    );
  }
  const innermost = depth === shape.length - 1;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (innermost) {
      // The hot case (rows of numbers): no allocation unless something is wrong.
      if (Array.isArray(item)) {
        throw new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', `${where}: ragged data, element [${[...index, i].join(',')}] is a list but its siblings are not`);
      }
    } else {
      checkRectangular(item, shape, depth + 1, where, [...index, i]);
    }
  }
}

/**
 * Flattens nested JSON arrays row-major (flat arrays pass through unchanged). With `shape`, nested data
 * must be nested exactly as `shape` says (each level as long as its dimension); flat data is left to the
 * count check of {@link tensorFromJsonValues}.
 */
export function flattenJsonData(data: unknown, where: string, shape?: readonly number[]): unknown[] {
  if (!Array.isArray(data)) return [data];
  if (!data.some(Array.isArray)) return data;
  if (shape !== undefined) return flattenToShape(data, shape, where);
  const out: unknown[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_JSON_RANK) {
      throw new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', `${where}: data is nested deeper than ${MAX_JSON_RANK} levels`);
    }
    if (Array.isArray(value)) for (const item of value) walk(item, depth + 1);
    else out.push(value);
  };
  walk(data, 0);
  return out;
}

function notNestedAsShape(where: string, shape: readonly number[], problem: string): SluiceError {
  return new SluiceError(
    'SLUICE_TENSOR_SHAPE_MISMATCH',
    `${where}: nested data does not match shape ${shapeText(shape)}: ${problem}; nest the data exactly as the shape says, or send it flat`,
  );
}

function rowName(index: readonly number[]): string {
  return index.length === 0 ? 'the outer list' : `row [${index.join(',')}]`;
}

/** Flattens `data`, checking each level's length against `shape`; `index` is the row being walked. */
function flattenToShape(data: readonly unknown[], shape: readonly number[], where: string): unknown[] {
  const out: unknown[] = [];
  const index: number[] = [];
  const walk = (row: unknown, depth: number): void => {
    const expected = shape[depth];
    if (depth >= MAX_JSON_RANK) {
      throw new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', `${where}: data is nested deeper than ${MAX_JSON_RANK} levels`);
    }
    if (expected === undefined) {
      const what = index.length === 0 ? 'the data' : `element [${index.join(',')}]`;
      throw notNestedAsShape(where, shape, `${what} is a list, but the shape has only ${shape.length} dimensions`);
    }
    if (!Array.isArray(row)) throw notNestedAsShape(where, shape, `${rowName(index)} is ${describe(row)}, expected a list of ${expected} values`);
    if (row.length !== expected) throw notNestedAsShape(where, shape, `${rowName(index)} has ${row.length} values, expected ${expected}`);
    const innermost = depth === shape.length - 1;
    for (let i = 0; i < row.length; i++) {
      const item: unknown = row[i];
      if (innermost && !Array.isArray(item)) {
        out.push(item);
        continue;
      }
      index.push(i);
      walk(item, depth + 1);
      index.pop();
    }
  };
  walk(data, 0);
  return out;
}

function invalid(where: string, index: number, expected: string, value: unknown): SluiceError {
  return new SluiceError(
    'SLUICE_TENSOR_INVALID_VALUE',
    `${where}: element ${index} is ${describe(value)}, expected ${expected}`,
    { index, expected },
  );
}

/** `String.prototype.isWellFormed` (Node.js 20 has it; the ES2023 typings do not): no lone surrogate. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The refusal of a BYTES string holding a lone UTF-16 surrogate (JSON's `"\ud800"`): it is no character
 * and has no UTF-8 encoding, and encoding it anyway would hand the model U+FFFD in its place.
 */
function loneSurrogate(where: string, index: number, text: string): SluiceError {
  const unit = /\p{Surrogate}/u.exec(text)?.[0].charCodeAt(0) ?? 0;
  return new SluiceError(
    'SLUICE_TENSOR_INVALID_VALUE',
    `${where}: BYTES element ${index} holds the lone UTF-16 surrogate \\u${unit.toString(16)}, which is no character and has no UTF-8 encoding; send text only (a character beyond U+FFFF as both halves of its surrogate pair)`,
    { index },
  );
}

/**
 * The finite range of each floating-point datatype, as messages show it. A number just beyond it that rounds
 * to its largest value (65519 for FP16, say) is taken; one that rounds to an infinity is refused.
 */
const FLOAT_RANGES = { FP16: '[-65504, 65504]', FP32: '[-3.4028235e+38, 3.4028235e+38]' } as const;

/** The error for a value that is not a number, is not finite, or overflows `datatype` to infinity. */
function invalidFloat(where: string, index: number, datatype: 'FP16' | 'FP32' | 'FP64', value: unknown): SluiceError {
  if (datatype === 'FP64' || typeof value !== 'number' || !Number.isFinite(value)) {
    return invalid(where, index, `a finite number for ${datatype}`, value);
  }
  return invalid(where, index, `a number that rounds into ${FLOAT_RANGES[datatype]} for ${datatype}`, value);
}

function fillBool(values: readonly unknown[], where: string): Uint8Array {
  const out = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === true || v === 1) out[i] = 1;
    else if (v === false || v === 0) out[i] = 0;
    else throw invalid(where, i, 'true or false for BOOL', v);
  }
  return out;
}

/*
 * One loop per float datatype, each checking the value after conversion: that single test refuses
 * JSON's `1e999` and finite numbers that overflow the datatype, which would otherwise reach the model
 * as infinities. Separate loops each see one array type: one shared loop over the three was 10 to 50 %
 * slower per element.
 */

function fillFloat16(values: readonly unknown[], where: string): Uint16Array {
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw invalidFloat(where, i, 'FP16', v);
    const bits = float32ToFloat16Bits(v);
    // An all-ones exponent is an infinity or a NaN.
    if ((bits & 0x7c00) === 0x7c00) throw invalidFloat(where, i, 'FP16', v);
    out[i] = bits;
  }
  return out;
}

function fillFloat32(values: readonly unknown[], where: string): Float32Array {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw invalidFloat(where, i, 'FP32', v);
    const single = Math.fround(v);
    if (!Number.isFinite(single)) throw invalidFloat(where, i, 'FP32', v);
    out[i] = single;
  }
  return out;
}

function fillFloat64(values: readonly unknown[], where: string): Float64Array {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw invalidFloat(where, i, 'FP64', v);
    out[i] = v;
  }
  return out;
}

function fillInteger(datatype: IntegerDatatype, values: readonly unknown[], where: string): TensorData {
  const [min, max] = INTEGER_RANGES[datatype];
  const out = new NUMERIC_DATATYPE_INFO[datatype].array(values.length);
  const big = datatype === 'INT64' || datatype === 'UINT64';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      // A JSON number past 2^53 was rounded when it was parsed, so the value shown may not be the one sent.
      const hint = big && typeof v === 'number' && Math.abs(v) > max ? '; JSON numbers are exact only within that range, so send larger 64-bit values as binary data' : '';
      throw invalid(where, i, `an integer in [${min}, ${max}] for ${datatype}${hint}`, v);
    }
    out[i] = big ? BigInt(v) : v;
  }
  return out;
}

function fillNumeric(datatype: NumericDatatype, values: readonly unknown[], where: string): TensorData {
  switch (datatype) {
    case 'BOOL':
      return fillBool(values, where);
    case 'FP16':
      return fillFloat16(values, where);
    case 'FP32':
      return fillFloat32(values, where);
    case 'FP64':
      return fillFloat64(values, where);
    default:
      return fillInteger(datatype, values, where);
  }
}

/**
 * Builds a tensor from flat JSON values, checking that their count matches `shape` and that every value
 * fits `datatype` (finite numbers within the float datatype's range, integers in range, booleans, strings
 * for BYTES).
 */
export function tensorFromJsonValues(
  name: string,
  datatype: SupportedDatatype,
  shape: readonly number[],
  values: readonly unknown[],
  where = `input \`${name}\``,
): Tensor {
  const expected = elementCount(shape);
  if (values.length !== expected) {
    throw new SluiceError(
      'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
      `${where}: shape ${shapeText(shape)} needs ${expected} values, got ${values.length}`,
      { expected, got: values.length },
    );
  }
  if (datatype === 'BYTES') {
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (typeof value !== 'string') throw invalid(where, i, 'a string for BYTES', value);
      if (!isWellFormed(value)) throw loneSurrogate(where, i, value);
    }
    return { name, datatype, shape: [...shape], data: utf8BytesElements(values as readonly string[]) };
  }
  return { name, datatype, shape: [...shape], data: fillNumeric(datatype, values, where) };
}

/**
 * A tensor's elements as JSON scalars, row-major (64-bit integers become numbers; FP16 is expanded).
 * Refuses a tensor of more than {@link MAX_SPELLED_OUT_VALUES} values with `SLUICE_RESPONSE_TOO_LARGE`.
 */
export function tensorToJsonValues(tensor: Tensor): JsonScalar[] {
  checkSpelledOutSize(tensor, 'ask for it as binary data (OIP `binary_data_output: true` with binary tensors)');
  const { data, datatype } = tensor;
  if (datatype === 'BYTES') {
    const decoder = new TextDecoder();
    return (data as readonly Uint8Array[]).map((bytes) => decoder.decode(bytes));
  }
  const numbers = data as ArrayLike<number | bigint>;
  const out = new Array<JsonScalar>(numbers.length);
  for (let i = 0; i < numbers.length; i++) {
    const v = numbers[i] as number | bigint;
    if (datatype === 'BOOL') out[i] = v !== 0;
    else if (datatype === 'FP16') out[i] = float16BitsToNumber(v as number);
    else out[i] = typeof v === 'bigint' ? Number(v) : v;
  }
  return out;
}

/** Re-nests flat row-major values into lists following `shape` (a scalar shape gives the single value). */
export function nestJsonValues(values: readonly JsonScalar[], shape: readonly number[]): unknown {
  if (shape.length === 0) return values[0];
  let offset = 0;
  const build = (depth: number): unknown[] => {
    const size = shape[depth] ?? 0;
    if (depth === shape.length - 1) {
      const row = values.slice(offset, offset + size);
      offset += size;
      return row;
    }
    return Array.from({ length: size }, () => build(depth + 1));
  };
  return build(0);
}
