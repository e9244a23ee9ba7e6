import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type SupportedDatatype, type Tensor, type TensorData } from '../../../../src/sdk/tensor/index.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import { writeIdentityModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const utf8 = new TextEncoder();

/** Six values per datatype that sit at or near the edges of its range. */
const SAMPLES: Readonly<Record<SupportedDatatype, TensorData>> = {
  BOOL: new Uint8Array([0, 1, 1, 0, 0, 1]),
  UINT8: new Uint8Array([0, 1, 127, 128, 254, 255]),
  UINT16: new Uint16Array([0, 1, 255, 256, 65534, 65535]),
  UINT32: new Uint32Array([0, 1, 65536, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1]),
  UINT64: new BigUint64Array([0n, 1n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 2n, 2n ** 64n - 1n]),
  INT8: new Int8Array([-128, -1, 0, 1, 126, 127]),
  INT16: new Int16Array([-32768, -1, 0, 1, 32766, 32767]),
  INT32: new Int32Array([-(2 ** 31), -1, 0, 1, 2 ** 31 - 2, 2 ** 31 - 1]),
  INT64: new BigInt64Array([-(2n ** 63n), -(2n ** 53n) - 1n, -1n, 0n, 2n ** 53n + 1n, 2n ** 63n - 1n]),
  // Raw half bits: 1.0, quiet NaN with payload, -Inf, -0, the smallest subnormal, the largest finite.
  FP16: new Uint16Array([0x3c00, 0x7e01, 0xfc00, 0x8000, 0x0001, 0x7bff]),
  FP32: new Float32Array([-0, 1.5, -3.4028234663852886e38, 1.401298464324817e-45, Infinity, Number.NaN]),
  FP64: new Float64Array([-0, 0.1, -1.7976931348623157e308, 5e-324, -Infinity, Number.NaN]),
  BYTES: ['plain', '', 'héllo wörld', '日本語', '😀 emoji', 'tab\tand\nnewline'].map((text) => utf8.encode(text)),
};

const DATATYPES = Object.keys(SAMPLES) as SupportedDatatype[];

describe('datatype round trip through a real Identity model', () => {
  const runtime = new OnnxRuntime();
  let dir: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
  });

  afterAll(async () => {
    await cleanup();
  });

  it.each(DATATYPES)('%s values come back exactly', async (datatype) => {
    const model = await runtime.load(await writeIdentityModel(dir, datatype), {});
    try {
      const input: Tensor = { name: 'input', datatype, shape: [2, 3], data: SAMPLES[datatype] };
      const [output] = await model.run([input]);
      expect(output?.name).toBe('output');
      expect(output?.datatype).toBe(datatype);
      expect(output?.shape).toEqual([2, 3]);
      expect(rawBytes(output!.data)).toEqual(rawBytes(SAMPLES[datatype]));
    } finally {
      await model.release();
    }
  });
});

/** The exact bytes of tensor data, so that NaN payloads, -0 and FP16 bits compare exactly. */
function rawBytes(data: TensorData): number[][] {
  if (Array.isArray(data)) return (data as readonly Uint8Array[]).map((element) => [...element]);
  const view = data as ArrayBufferView;
  return [[...new Uint8Array(view.buffer, view.byteOffset, view.byteLength)]];
}
