import type { Tensor } from '../../../sdk/tensor/index.js';
import { checkSpelledOutSize, tensorToRawBytes } from '../../../sdk/tensor/index.js';
import type { InferOutputTensor, InferTensorContents, ModelInferResponse } from './oip-messages.js';

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function typedContents(tensor: Tensor): Partial<Record<keyof InferTensorContents, readonly unknown[]>> {
  checkSpelledOutSize(tensor, 'send the inputs as raw_input_contents, and the outputs come back as raw_output_contents');
  const { data } = tensor;
  switch (tensor.datatype) {
    case 'BYTES':
      return { bytes_contents: (data as readonly Uint8Array[]).map(asBuffer) };
    case 'BOOL':
      return { bool_contents: Array.from(data as Uint8Array, (v) => v !== 0) };
    case 'INT8':
    case 'INT16':
    case 'INT32':
      return { int_contents: Array.from(data as ArrayLike<number>) };
    case 'UINT8':
    case 'UINT16':
    case 'UINT32':
      return { uint_contents: Array.from(data as ArrayLike<number>) };
    case 'INT64':
      return { int64_contents: Array.from(data as BigInt64Array, String) };
    case 'UINT64':
      return { uint64_contents: Array.from(data as BigUint64Array, String) };
    case 'FP32':
      return { fp32_contents: Array.from(data as Float32Array) };
    case 'FP64':
      return { fp64_contents: Array.from(data as Float64Array) };
    case 'FP16':
      return {};
  }
}

/**
 * Encodes outputs as a `ModelInferResponse`: as `raw_output_contents` (one entry per output, in order)
 * when `raw` or when an output is FP16 (which has no typed field), else as typed `contents`.
 */
export function encodeModelInferResponse(model: { name: string; version: string; id: string }, outputs: readonly Tensor[], raw: boolean): ModelInferResponse {
  const useRaw = raw || outputs.some((t) => t.datatype === 'FP16');
  const described = outputs.map((tensor): InferOutputTensor => {
    const base = { name: tensor.name, datatype: tensor.datatype, shape: tensor.shape };
    return useRaw ? base : { ...base, contents: typedContents(tensor) };
  });
  return {
    model_name: model.name,
    model_version: model.version,
    id: model.id,
    outputs: described,
    ...(useRaw ? { raw_output_contents: outputs.map((t) => asBuffer(tensorToRawBytes(t))) } : {}),
  };
}
