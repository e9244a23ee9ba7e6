/** One HTTP request the load generator repeats. */
export interface BenchRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

/** The little-endian bytes of `values` (every platform Node runs on is little-endian). */
export function float32Bytes(values: Float32Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

/** Hand-rolled server, JSON: `{"data": [...]}` holding one instance. */
export function handRolledJsonRequest(instance: Float32Array): BenchRequest {
  return {
    path: '/predict',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: Array.from(instance) }),
  };
}

/** Hand-rolled server, raw little-endian FP32 bytes of one instance. */
export function handRolledBinaryRequest(instance: Float32Array): BenchRequest {
  return { path: '/predict', headers: { 'content-type': 'application/octet-stream' }, body: float32Bytes(instance) };
}

/** Sluice `POST /predictions/<model>` with one instance as a bare JSON array. */
export function predictionsRequest(model: string, instance: Float32Array): BenchRequest {
  return {
    path: `/predictions/${model}`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(Array.from(instance)),
  };
}

/**
 * Sluice `POST /v2/models/<model>/infer` with the binary tensor extension: a JSON header naming the FP32
 * input `inputName` of `shape` (batch dimension included) and asking for binary outputs, followed by the
 * raw tensor bytes; `Inference-Header-Content-Length` gives the header's size.
 */
export function oipBinaryRequest(model: string, inputName: string, shape: readonly number[], data: Float32Array): BenchRequest {
  const bytes = float32Bytes(data);
  const header = Buffer.from(
    JSON.stringify({
      inputs: [{ name: inputName, shape, datatype: 'FP32', parameters: { binary_data_size: bytes.byteLength } }],
      parameters: { binary_data_output: true },
    }),
    'utf8',
  );
  return {
    path: `/v2/models/${model}/infer`,
    headers: { 'content-type': 'application/octet-stream', 'inference-header-content-length': String(header.byteLength) },
    body: Buffer.concat([header, bytes]),
  };
}
