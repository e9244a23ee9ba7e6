import { float32ToFloat16Bits, type Datatype } from '../../src/sdk/tensor/index.js';

/** A ready-to-send OIP binary request: its body and the length of its JSON header. */
export interface BinaryRequest {
  readonly body: Buffer;
  readonly headerLength: number;
}

/** Deterministic pseudo-random values in [-2, 2), like a normalised image. */
function pseudoImage(count: number, seed: number): Float32Array {
  const values = new Float32Array(count);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < count; i += 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    values[i] = (state / 2 ** 32) * 4 - 2;
  }
  return values;
}

/**
 * One OIP `infer` request with input `name` of `shape` (one image: the first dimension is 1) as raw
 * little-endian `datatype` data (FP32 or FP16), asking for every output as binary.
 */
export function binaryInferRequest(name: string, shape: readonly number[], datatype: Extract<Datatype, 'FP32' | 'FP16'>, seed = 1): BinaryRequest {
  const values = pseudoImage(shape.reduce((a, b) => a * b, 1), seed);
  const data = datatype === 'FP32' ? Buffer.from(values.buffer) : Buffer.from(Uint16Array.from(values, float32ToFloat16Bits).buffer);
  const header = Buffer.from(
    JSON.stringify({
      inputs: [{ name, shape, datatype, parameters: { binary_data_size: data.byteLength } }],
      parameters: { binary_data_output: true },
    }),
    'utf8',
  );
  return { body: Buffer.concat([header, data]), headerLength: header.byteLength };
}
