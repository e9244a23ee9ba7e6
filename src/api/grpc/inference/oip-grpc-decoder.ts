import { SluiceError } from '../../../sdk/errors/index.js';
import {
  NUMERIC_DATATYPE_INFO,
  elementCount,
  isDatatype,
  tensorFromJsonValues,
  tensorFromRawBytes,
  type SupportedDatatype,
  type Tensor,
} from '../../../sdk/tensor/index.js';
import { shapeText } from '../../../sdk/tensor/shape-text.js';
import type { InferInputTensor, InferParameters, InferTensorContents, ModelInferRequest } from './oip-messages.js';

/** A `ModelInferRequest` decoded into tensors. */
export interface DecodedInferRequest {
  readonly id: string;
  readonly inputs: Tensor[];
  /** Requested outputs in order; undefined means all. */
  readonly outputs?: readonly string[];
  /** Request parameters as plain values (`priority`, `timeout`, …). */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** True when the inputs came as `raw_input_contents`: the answer then uses `raw_output_contents`. */
  readonly raw: boolean;
}

/** The `InferTensorContents` field that carries each datatype's elements (FP16 has none: raw only). */
const CONTENTS_FIELD: Readonly<Record<Exclude<SupportedDatatype, 'FP16'>, keyof InferTensorContents>> = {
  BOOL: 'bool_contents',
  INT8: 'int_contents',
  INT16: 'int_contents',
  INT32: 'int_contents',
  INT64: 'int64_contents',
  UINT8: 'uint_contents',
  UINT16: 'uint_contents',
  UINT32: 'uint_contents',
  UINT64: 'uint64_contents',
  FP32: 'fp32_contents',
  FP64: 'fp64_contents',
  BYTES: 'bytes_contents',
};

const CONTENTS_FIELDS = [...new Set(Object.values(CONTENTS_FIELD))];

function invalid(message: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', message);
}

/** A parameter's value: boolean, number (64-bit integers beyond 2^53 stay decimal strings) or string. */
function parameterValue(parameter: InferParameters[string]): unknown {
  const choice = parameter.parameter_choice;
  if (choice === undefined) return undefined;
  const value = parameter[choice];
  if (choice === 'int64_param' || choice === 'uint64_param') {
    const number = Number(value);
    return Number.isSafeInteger(number) ? number : value;
  }
  return value;
}

/** Parameters as plain values. */
export function parameterValues(parameters: InferParameters): Record<string, unknown> {
  return Object.fromEntries(Object.entries(parameters).map(([name, parameter]) => [name, parameterValue(parameter)]));
}

const SHAPE_EXPECTED = 'a shape is a list of non-negative integers, e.g. [1, 4]';

/**
 * The shape of an input (64-bit integers as decimal strings): each dimension non-negative and at most
 * 2^53 - 1, so that it and the element counts made of it stay exact as numbers. The messages are those of
 * the HTTP route's decoder.
 */
function decodeShape(shape: readonly string[], where: string): number[] {
  const dims: number[] = [];
  for (let i = 0; i < shape.length; i++) {
    const dim = String(shape[i]);
    const value = Number(dim);
    if (!Number.isInteger(value) || value < 0) throw invalid(`${where}.shape[${i}] is ${dim}; ${SHAPE_EXPECTED}`);
    if (value > Number.MAX_SAFE_INTEGER) throw invalid(`${where}.shape[${i}] is ${dim}, beyond 2^53 - 1 (a count that large is not exact); ${SHAPE_EXPECTED}`);
    dims.push(value);
  }
  return dims;
}

function hasContents(contents: InferTensorContents | null): boolean {
  return contents !== null && CONTENTS_FIELDS.some((field) => contents[field].length > 0);
}

function bigIntegers(values: readonly string[], datatype: 'INT64' | 'UINT64'): BigInt64Array | BigUint64Array {
  const out = datatype === 'INT64' ? new BigInt64Array(values.length) : new BigUint64Array(values.length);
  values.forEach((value, i) => {
    out[i] = BigInt(value);
  });
  return out;
}

function typedTensor(input: InferInputTensor, datatype: SupportedDatatype, shape: number[], label: string): Tensor {
  if (datatype === 'FP16') throw invalid(`${label}: FP16 has no typed contents field; send FP16 elements in raw_input_contents`);
  const field = CONTENTS_FIELD[datatype];
  const contents = input.contents;
  const values = contents?.[field] ?? [];
  const elsewhere = contents === null ? undefined : CONTENTS_FIELDS.find((f) => f !== field && contents[f].length > 0);
  if (elsewhere !== undefined) {
    throw new SluiceError(
      'SLUICE_TENSOR_DATATYPE_MISMATCH',
      `${label} is ${datatype} but has elements in contents.${elsewhere}; ${datatype} elements go in contents.${field}`,
    );
  }
  const expected = elementCount(shape);
  if (values.length !== expected) {
    throw new SluiceError('SLUICE_TENSOR_DATA_LENGTH_MISMATCH', `${label}: shape ${shapeText(shape)} needs ${expected} values, got ${values.length}`, {
      expected,
      got: values.length,
    });
  }
  if (datatype === 'BYTES') return { name: input.name, datatype, shape, data: [...(values as readonly Uint8Array[])] };
  if (datatype === 'INT64' || datatype === 'UINT64') return { name: input.name, datatype, shape, data: bigIntegers(values as readonly string[], datatype) };
  if (datatype === 'FP32' || datatype === 'FP64') {
    // Protobuf floats are numbers by construction; no per-element check needed.
    const data = new NUMERIC_DATATYPE_INFO[datatype].array(values.length);
    (data as Float32Array | Float64Array).set(values as readonly number[]);
    return { name: input.name, datatype, shape, data };
  }
  return tensorFromJsonValues(input.name, datatype, shape, values, label);
}

function decodeInput(input: InferInputTensor, index: number, raw: Uint8Array | undefined): Tensor {
  if (input.name === '') throw invalid(`inputs[${index}].name must be a non-empty string`);
  const label = `input \`${input.name}\``;
  const { datatype } = input;
  if (!isDatatype(datatype)) {
    throw new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', `${label}: datatype ${JSON.stringify(datatype)} is not an OIP datatype (FP32, INT64, BYTES, …)`);
  }
  if (datatype === 'BF16') throw new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', `${label}: BF16 is not supported by the ONNX runtime; send FP16 or FP32`);
  const shape = decodeShape(input.shape, `inputs[${index}]`);
  if (raw === undefined) return typedTensor(input, datatype, shape, label);
  if (hasContents(input.contents)) throw invalid(`${label} has typed contents while the request uses raw_input_contents; send every input one way`);
  return tensorFromRawBytes(input.name, datatype, shape, raw, label);
}

/**
 * The name of requested output `index`. An output asked for twice, or with the classification extension
 * (which Sluice does not implement), is refused rather than answered twice or answered with the raw
 * tensor the client did not ask for, as the HTTP route refuses them.
 */
function decodeOutput(output: ModelInferRequest['outputs'][number], index: number, outputs: ModelInferRequest['outputs']): string {
  const where = `outputs[${index}]`;
  const { name } = output;
  for (let i = 0; i < index; i++) {
    if (outputs[i]?.name === name) throw invalid(`${where}: output \`${name}\` is asked for more than once; ask for each output once`);
  }
  if (Object.hasOwn(output.parameters, 'classification')) {
    throw invalid(`${where}.parameters.classification: Sluice does not implement the classification extension (ServerMetadata lists its extensions); ask for output \`${name}\` without it and rank its values`);
  }
  return name;
}

/**
 * Decodes a `ModelInferRequest`: typed `contents` per input, or `raw_input_contents` with one entry per
 * input in input order (never both). Checks names, datatypes, shapes and that every input's data has
 * exactly the size its shape and datatype call for.
 */
export function decodeModelInferRequest(request: ModelInferRequest): DecodedInferRequest {
  const { inputs, raw_input_contents: rawContents } = request;
  if (inputs.length === 0) throw invalid('inputs must hold at least one tensor');
  const raw = rawContents.length > 0;
  if (raw && rawContents.length !== inputs.length) {
    throw invalid(`raw_input_contents has ${rawContents.length} entries for ${inputs.length} inputs; send one entry per input, in input order`);
  }
  return {
    id: request.id,
    inputs: inputs.map((input, i) => decodeInput(input, i, raw ? rawContents[i] : undefined)),
    // An empty list asks for no output in particular, which is every output (as Triton reads it).
    ...(request.outputs.length > 0 ? { outputs: request.outputs.map(decodeOutput) } : {}),
    parameters: parameterValues(request.parameters),
    raw,
  };
}
