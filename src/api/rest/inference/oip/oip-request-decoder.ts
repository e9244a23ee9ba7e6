import { SluiceError } from '../../../../sdk/errors/index.js';
import { flattenJsonData, isDatatype, tensorFromJsonValues, tensorFromRawBytes, type Tensor } from '../../../../sdk/tensor/index.js';
import { jsonTensorShape } from '../../../../sdk/tensor/json-shape.js';
import { jsonBodyText } from '../../../../sdk/bodies/json-text.js';

/** An OIP inference request decoded into tensors. */
export interface DecodedOipRequest {
  readonly id?: string;
  readonly inputs: Tensor[];
  /** Requested outputs in order; undefined means all. */
  readonly outputs?: readonly string[];
  /** Whether an output is answered as raw bytes (binary tensor extension). */
  readonly isBinaryOutput: (name: string) => boolean;
  /** The request-level `parameters` (`priority`, `timeout`, `binary_data_output`, …). */
  readonly parameters: Readonly<Record<string, unknown>>;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', message);
}

function parameters(value: unknown, where: string): JsonObject {
  if (value === undefined) return {};
  if (!isObject(value)) throw invalid(`${where}.parameters must be an object`);
  return value;
}

/** A boolean parameter (`binary_data_output`, `binary_data`); undefined when absent. */
function booleanParameter(params: JsonObject, key: string, where: string): boolean | undefined {
  const value = params[key];
  if (value === undefined || typeof value === 'boolean') return value;
  throw invalid(`${where}.${key} must be true or false, got ${JSON.stringify(value)}`);
}

/** Reads `binary_data_size` bytes per binary input from `binary`, in input order. */
class BinarySlicer {
  private offset = 0;

  constructor(private readonly binary: Uint8Array) {}

  take(size: number, where: string): Uint8Array {
    if (this.offset + size > this.binary.byteLength) {
      throw new SluiceError(
        'SLUICE_REQUEST_BINARY_HEADER_INVALID',
        `${where}: binary_data_size ${size} runs past the end of the body (${this.binary.byteLength - this.offset} bytes left); check the sizes and Inference-Header-Content-Length`,
      );
    }
    const slice = this.binary.subarray(this.offset, this.offset + size);
    this.offset += size;
    return slice;
  }

  assertConsumed(): void {
    if (this.offset !== this.binary.byteLength) {
      throw new SluiceError(
        'SLUICE_REQUEST_BINARY_HEADER_INVALID',
        `the body has ${this.binary.byteLength - this.offset} bytes after the last binary input; the binary_data_size values do not add up to the body`,
      );
    }
  }
}

function decodeInput(value: unknown, index: number, slicer: BinarySlicer): Tensor {
  const where = `inputs[${index}]`;
  if (!isObject(value)) throw invalid(`${where} must be an object with name, shape, datatype and data`);
  const { name, datatype } = value;
  if (typeof name !== 'string' || name === '') throw invalid(`${where}.name must be a non-empty string`);
  const label = `input \`${name}\``;
  if (!isDatatype(datatype)) {
    throw new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', `${label}: datatype ${JSON.stringify(datatype)} is not an OIP datatype (FP32, INT64, BYTES, …)`);
  }
  if (datatype === 'BF16') {
    throw new SluiceError('SLUICE_TENSOR_UNSUPPORTED_DATATYPE', `${label}: BF16 is not supported by the ONNX runtime; send FP16 or FP32`);
  }
  const shape = jsonTensorShape(value['shape'], where);
  const size = parameters(value['parameters'], where)['binary_data_size'];
  if (size !== undefined) {
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw invalid(`${where}.parameters.binary_data_size must be a non-negative integer`);
    if (value['data'] !== undefined) throw invalid(`${where} has both data and binary_data_size; send one of them`);
    return tensorFromRawBytes(name, datatype, shape, slicer.take(size, label), label);
  }
  if (value['data'] === undefined) throw invalid(`${where} has no data (and no binary_data_size)`);
  return tensorFromJsonValues(name, datatype, shape, flattenJsonData(value['data'], label, shape), label);
}

/**
 * The name of requested output `index`, noted in `binaryByOutput` with its `binary_data` (if any). An
 * output asked for twice, or with the classification extension (which Sluice does not implement), is
 * refused rather than answered twice or answered with the raw tensor the client did not ask for.
 */
function decodeOutput(output: unknown, index: number, binaryByOutput: Map<string, boolean | undefined>): string {
  const where = `outputs[${index}]`;
  if (!isObject(output) || typeof output['name'] !== 'string') throw invalid(`${where} must be an object with a name`);
  const name = output['name'];
  if (binaryByOutput.has(name)) throw invalid(`${where}: output \`${name}\` is asked for more than once; ask for each output once`);
  const params = parameters(output['parameters'], where);
  if (params['classification'] !== undefined) {
    throw invalid(`${where}.parameters.classification: Sluice does not implement the classification extension (GET /v2 lists its extensions); ask for output \`${name}\` without it and rank its values`);
  }
  binaryByOutput.set(name, booleanParameter(params, 'binary_data', `${where}.parameters`));
  return name;
}

/**
 * Decodes an OIP infer request: a JSON header (already parsed) and, for the binary tensor extension, the
 * raw bytes that followed it. Checks structure, datatypes, data counts and binary sizes.
 */
export function decodeOipRequest(header: unknown, binary: Uint8Array = new Uint8Array(0)): DecodedOipRequest {
  if (!isObject(header)) throw invalid('the request must be a JSON object with an "inputs" list');
  const { inputs, outputs, id } = header;
  if (id !== undefined && typeof id !== 'string') throw invalid('"id" must be a string');
  if (!Array.isArray(inputs) || inputs.length === 0) throw invalid('"inputs" must be a non-empty list of tensors');
  const slicer = new BinarySlicer(binary);
  const tensors = inputs.map((input, i) => decodeInput(input, i, slicer));
  slicer.assertConsumed();
  const requestParameters = parameters(header['parameters'], 'request');
  const binaryByDefault = booleanParameter(requestParameters, 'binary_data_output', 'parameters') ?? false;
  // Every requested output, with its own binary_data when it gives one.
  const binaryByOutput = new Map<string, boolean | undefined>();
  let names: string[] | undefined;
  if (outputs !== undefined) {
    if (!Array.isArray(outputs)) throw invalid('"outputs" must be a list of {name}');
    names = outputs.map((output, i) => decodeOutput(output, i, binaryByOutput));
  }
  return {
    ...(id !== undefined ? { id } : {}),
    inputs: tensors,
    // An empty list asks for no output in particular, which is every output (as Triton reads it).
    ...(names !== undefined && names.length > 0 ? { outputs: names } : {}),
    isBinaryOutput: (name) => binaryByOutput.get(name) ?? binaryByDefault,
    parameters: requestParameters,
  };
}

/** Splits a binary-extension body into its JSON header and the bytes after it. */
export function splitBinaryBody(body: Buffer, headerLengthValue: string): { header: string; binary: Uint8Array } {
  if (!/^\d+$/.test(headerLengthValue)) {
    throw new SluiceError('SLUICE_REQUEST_BINARY_HEADER_INVALID', `Inference-Header-Content-Length must be a byte count, got ${JSON.stringify(headerLengthValue)}`);
  }
  const length = Number(headerLengthValue);
  if (length > body.byteLength) {
    throw new SluiceError(
      'SLUICE_REQUEST_BINARY_HEADER_INVALID',
      `Inference-Header-Content-Length is ${headerLengthValue} but the body has only ${body.byteLength} bytes; it must be the size of the JSON header`,
    );
  }
  return { header: jsonBodyText(body.subarray(0, length)), binary: body.subarray(length) };
}

/**
 * Parses the JSON header of a binary-extension body; when it is not JSON, the error says which bytes
 * were read as the header, since a wrong Inference-Header-Content-Length is the usual cause.
 */
export function parseBinaryHeader(header: string, headerLengthValue: string): unknown {
  try {
    return JSON.parse(header) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError(
      'SLUICE_REQUEST_MALFORMED_JSON',
      `the JSON header (the first ${headerLengthValue} bytes of the body, as Inference-Header-Content-Length says) is not valid JSON: ${reason}; Inference-Header-Content-Length must be the size of the JSON header in bytes`,
    );
  }
}
