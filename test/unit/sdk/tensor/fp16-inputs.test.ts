import { describe, expect, it } from '@jest/globals';
import { float32ToFloat16Bits, toModelInputDatatypes, type HalfArrayAllocator } from '../../../../src/sdk/tensor/index.js';

describe('toModelInputDatatypes', () => {
  const specs = [
    { name: 'h', datatype: 'FP16', shape: [-1, 2] },
    { name: 'f', datatype: 'FP32', shape: [-1, 2] },
  ] as const;

  it('rounds FP32 data for an FP16 input to the nearest half', () => {
    const [h] = toModelInputDatatypes([{ name: 'h', datatype: 'FP32', shape: [1, 2], data: new Float32Array([0.1, 1e6]) }], specs);
    expect(h).toEqual({ name: 'h', datatype: 'FP16', shape: [1, 2], data: new Uint16Array([float32ToFloat16Bits(0.1), 0x7c00]) });
  });

  it('writes the halves into the array the allocator gives for the input', () => {
    const given = new Uint16Array(2);
    const allocate: HalfArrayAllocator = (name, _datatype, length) => (name === 'h' && length === 2 ? given : undefined);
    const [h] = toModelInputDatatypes([{ name: 'h', datatype: 'FP32', shape: [1, 2], data: new Float32Array([1, 2]) }], specs, allocate);
    expect(h?.data).toBe(given);
  });

  it('passes FP32 data for an FP32 input through untouched', () => {
    const f = { name: 'f', datatype: 'FP32', shape: [1, 2], data: new Float32Array([1, 2]) } as const;
    expect(toModelInputDatatypes([f], specs)[0]).toBe(f);
  });
});
