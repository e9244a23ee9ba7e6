import { describe, expect, it } from '@jest/globals';
import { tensorFromRawBytes, tensorToRawBytes, type Tensor } from '../../../../src/sdk/tensor/index.js';

function lengthPrefixed(...elements: string[]): Uint8Array {
  const utf8 = new TextEncoder();
  const parts = elements.map((e) => utf8.encode(e));
  const out = new Uint8Array(parts.reduce((n, p) => n + 4 + p.byteLength, 0));
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const part of parts) {
    view.setUint32(offset, part.byteLength, true);
    out.set(part, offset + 4);
    offset += 4 + part.byteLength;
  }
  return out;
}

describe('tensorFromRawBytes', () => {
  it('reads little-endian FP32 elements', () => {
    const bytes = new Uint8Array(new Float32Array([1.5, -2]).buffer);
    expect(tensorFromRawBytes('x', 'FP32', [2], bytes)).toEqual({ name: 'x', datatype: 'FP32', shape: [2], data: new Float32Array([1.5, -2]) });
  });

  it('reads elements that start at an unaligned offset of a larger buffer', () => {
    const backing = new Uint8Array(9);
    backing.set(new Uint8Array(new Int32Array([7, -1]).buffer), 1);
    expect(tensorFromRawBytes('x', 'INT32', [2], backing.subarray(1)).data).toEqual(new Int32Array([7, -1]));
  });

  it('uses aligned bytes in place, without a copy', () => {
    const bytes = new Uint8Array(new Float32Array([1.5, -2]).buffer);
    const tensor = tensorFromRawBytes('x', 'FP32', [2], bytes);
    expect((tensor.data as Float32Array).buffer).toBe(bytes.buffer);
    expect([...(tensor.data as Float32Array)]).toEqual([1.5, -2]);
  });

  it('copies bytes that are not aligned for the element size', () => {
    const backing = new Uint8Array(9);
    backing.set(new Uint8Array(new Float32Array([1.5, -2]).buffer), 1);
    const bytes = backing.subarray(1);
    const tensor = tensorFromRawBytes('x', 'FP32', [2], bytes);
    expect((tensor.data as Float32Array).buffer).not.toBe(bytes.buffer);
    expect([...(tensor.data as Float32Array)]).toEqual([1.5, -2]);
  });

  it('reads 64-bit integers', () => {
    const bytes = new Uint8Array(new BigInt64Array([2n ** 60n, -1n]).buffer);
    expect(tensorFromRawBytes('x', 'INT64', [1, 2], bytes).data).toEqual(new BigInt64Array([2n ** 60n, -1n]));
  });

  it('refuses a byte count that does not match the shape', () => {
    expect(() => tensorFromRawBytes('x', 'FP32', [2, 2], new Uint8Array(12))).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        message: 'input `x`: shape [2,2] of FP32 needs 16 bytes, got 12',
        details: { expected: 16, got: 12 },
      }),
    );
  });

  it('quotes only the first 16 dimensions of a very long shape, and its rank', () => {
    const shape = Array.from({ length: 40_000 }, () => 1);
    expect(() => tensorFromRawBytes('x', 'INT8', shape, new Uint8Array(0))).toThrow('input `x`: shape [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,… (40000 dims)] of INT8 needs 1 bytes, got 0');
  });

  it('uses the given description of where the bytes came from', () => {
    expect(() => tensorFromRawBytes('x', 'INT8', [1], new Uint8Array(0), 'output `y`')).toThrow('output `y`: shape [1] of INT8 needs 1 bytes, got 0');
  });

  it('splits BYTES elements at their 4-byte little-endian length prefixes', () => {
    const tensor = tensorFromRawBytes('x', 'BYTES', [3], lengthPrefixed('ab', '', 'é'));
    expect(tensor.data).toEqual([new Uint8Array([0x61, 0x62]), new Uint8Array(0), new Uint8Array([0xc3, 0xa9])]);
  });

  it('reads BYTES that start at an offset of a larger buffer', () => {
    const body = lengthPrefixed('zz', 'ok');
    expect(tensorFromRawBytes('x', 'BYTES', [1], body.subarray(6)).data).toEqual([new Uint8Array([0x6f, 0x6b])]);
  });

  it('refuses a truncated BYTES length prefix', () => {
    const bytes = new Uint8Array([...lengthPrefixed('a'), 1, 0]);
    expect(() => tensorFromRawBytes('x', 'BYTES', [2], bytes)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH', message: 'input `x`: BYTES element 1 has a truncated 4-byte length prefix' }),
    );
  });

  it('refuses a BYTES element longer than the bytes left', () => {
    const bytes = new Uint8Array([5, 0, 0, 0, 0x61, 0x62]);
    expect(() => tensorFromRawBytes('x', 'BYTES', [1], bytes)).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH', message: 'input `x`: BYTES element 0 declares 5 bytes but only 2 remain' }),
    );
  });

  it('refuses BYTES data that goes on after the elements the shape needs, without reading the rest', () => {
    const bytes = new Uint8Array([...lengthPrefixed('a', 'b'), 0xff]);
    expect(() => tensorFromRawBytes('x', 'BYTES', [1], bytes)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        message: 'input `x`: shape needs 1 BYTES elements, but the data goes on for 6 bytes after them',
        details: { expected: 1 },
      }),
    );
    expect(() => tensorFromRawBytes('x', 'BYTES', [0], lengthPrefixed(''))).toThrow('input `x`: shape needs 0 BYTES elements, but the data goes on for 4 bytes after them');
  });

  it('refuses a BYTES element count that does not match the shape', () => {
    expect(() => tensorFromRawBytes('x', 'BYTES', [3], lengthPrefixed('a', 'b'))).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        message: 'input `x`: shape needs 3 BYTES elements, got 2',
        details: { expected: 3, got: 2 },
      }),
    );
  });
});

describe('tensorToRawBytes', () => {
  it('gives the little-endian bytes of numeric elements', () => {
    const tensor: Tensor = { name: 'y', datatype: 'UINT16', shape: [2], data: new Uint16Array([0x0102, 0x0304]) };
    expect(tensorToRawBytes(tensor)).toEqual(new Uint8Array([0x02, 0x01, 0x04, 0x03]));
  });

  it('gives only the bytes of a typed array that views part of a larger buffer', () => {
    const data = new Float32Array([1, 2, 3]).subarray(1, 2);
    expect(tensorToRawBytes({ name: 'y', datatype: 'FP32', shape: [1], data })).toEqual(new Uint8Array(new Float32Array([2]).buffer));
  });

  it('prefixes every BYTES element with its length', () => {
    const utf8 = new TextEncoder();
    const tensor: Tensor = { name: 'y', datatype: 'BYTES', shape: [2], data: [utf8.encode('ab'), utf8.encode('')] };
    expect(tensorToRawBytes(tensor)).toEqual(lengthPrefixed('ab', ''));
  });

  it('round-trips through tensorFromRawBytes', () => {
    const tensor: Tensor = { name: 'y', datatype: 'FP64', shape: [3], data: new Float64Array([0.1, -1e300, 5]) };
    expect(tensorFromRawBytes('y', 'FP64', [3], tensorToRawBytes(tensor))).toEqual(tensor);
  });
});
