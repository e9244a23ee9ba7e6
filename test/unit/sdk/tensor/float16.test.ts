import { describe, expect, it } from '@jest/globals';
import { float16BitsToNumber, float16OverflowIndex, float32ArrayToFloat16Bits, float32ToFloat16Bits } from '../../../../src/sdk/tensor/index.js';

describe('float32ToFloat16Bits', () => {
  const exact: ReadonlyArray<readonly [number, number]> = [
    [0, 0x0000],
    [1, 0x3c00],
    [-2, 0xc000],
    [0.5, 0x3800],
    [65504, 0x7bff],
    [2 ** -14, 0x0400],
    [2 ** -24, 0x0001],
    [2 ** -14 - 2 ** -24, 0x03ff],
    [1 + 2 ** -10, 0x3c01],
  ];
  it.each(exact)('encodes %p exactly as the half bits %p', (value, bits) => {
    expect(float32ToFloat16Bits(value)).toBe(bits);
  });

  it('keeps the sign of negative zero', () => {
    expect(float32ToFloat16Bits(-0)).toBe(0x8000);
  });

  it('rounds to the nearest half', () => {
    expect(float32ToFloat16Bits(0.1)).toBe(0x2e66);
    expect(float32ToFloat16Bits(1 + 0.7 * 2 ** -10)).toBe(0x3c01);
    expect(float32ToFloat16Bits(1 + 0.3 * 2 ** -10)).toBe(0x3c00);
  });

  it('rounds an exact tie to the even neighbour', () => {
    expect(float32ToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00);
    expect(float32ToFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
  });

  it('rounds a number just above a tie up, even when float32 would round it onto the tie', () => {
    expect(float32ToFloat16Bits(1 + 2 ** -11 + 2 ** -30)).toBe(0x3c01);
  });

  it('rounds a number just below a tie down, even when float32 would round it onto the tie', () => {
    expect(float32ToFloat16Bits(1 + 3 * 2 ** -11 - 2 ** -30)).toBe(0x3c01);
  });

  it('carries a mantissa overflow into the exponent', () => {
    expect(float32ToFloat16Bits(2 - 2 ** -12)).toBe(0x4000);
  });

  it('rounds the largest values below the overflow tie to the largest finite half', () => {
    expect(float32ToFloat16Bits(65519)).toBe(0x7bff);
    expect(float32ToFloat16Bits(65520 - 2 ** -20)).toBe(0x7bff);
  });

  it('overflows to infinity from the tie above the largest half', () => {
    expect(float32ToFloat16Bits(65520)).toBe(0x7c00);
    expect(float32ToFloat16Bits(-1e6)).toBe(0xfc00);
    expect(float32ToFloat16Bits(1e300)).toBe(0x7c00);
  });

  it('encodes infinities', () => {
    expect(float32ToFloat16Bits(Infinity)).toBe(0x7c00);
    expect(float32ToFloat16Bits(-Infinity)).toBe(0xfc00);
  });

  it('encodes NaN as a quiet NaN', () => {
    expect(float32ToFloat16Bits(NaN) & 0x7e00).toBe(0x7e00);
  });

  it('rounds into the subnormal range', () => {
    expect(float32ToFloat16Bits(3 * 2 ** -25)).toBe(0x0002);
    expect(float32ToFloat16Bits(-(2 ** -24))).toBe(0x8001);
  });

  it('rounds half the smallest subnormal to zero (tie to even) and anything above it up', () => {
    expect(float32ToFloat16Bits(2 ** -25)).toBe(0x0000);
    expect(float32ToFloat16Bits(2 ** -25 + 2 ** -40)).toBe(0x0001);
  });

  it('underflows to a signed zero', () => {
    expect(float32ToFloat16Bits(2 ** -30)).toBe(0x0000);
    expect(float32ToFloat16Bits(-(2 ** -30))).toBe(0x8000);
  });
});

describe('float16BitsToNumber', () => {
  const decoded: ReadonlyArray<readonly [number, number]> = [
    [0x0000, 0],
    [0x3c00, 1],
    [0xc000, -2],
    [0x7bff, 65504],
    [0x0400, 2 ** -14],
    [0x0001, 2 ** -24],
    [0x03ff, 2 ** -14 - 2 ** -24],
    [0x3555, 0.333251953125],
  ];
  it.each(decoded)('decodes the half bits %p as %p', (bits, value) => {
    expect(float16BitsToNumber(bits)).toBe(value);
  });

  it('decodes negative zero', () => {
    expect(Object.is(float16BitsToNumber(0x8000), -0)).toBe(true);
  });

  it('decodes infinities and NaN', () => {
    expect(float16BitsToNumber(0x7c00)).toBe(Infinity);
    expect(float16BitsToNumber(0xfc00)).toBe(-Infinity);
    expect(float16BitsToNumber(0x7e00)).toBeNaN();
    expect(float16BitsToNumber(0xfc01)).toBeNaN();
  });

  it('round-trips every finite half bit pattern', () => {
    const mismatches: number[] = [];
    for (let bits = 0; bits <= 0xffff; bits++) {
      if ((bits & 0x7c00) === 0x7c00) continue;
      if (float32ToFloat16Bits(float16BitsToNumber(bits)) !== bits) mismatches.push(bits);
    }
    expect(mismatches).toEqual([]);
  });
});

describe('float32ArrayToFloat16Bits', () => {
  it('rounds every element as float32ToFloat16Bits does, over every kind of float32', () => {
    // Bit patterns across every exponent (zeros, subnormals, ties, overflow, infinities, NaNs), both signs.
    const bits = new Uint32Array(1 << 16);
    for (let i = 0; i < bits.length; i += 1) bits[i] = Math.imul(i, 0x9e3779b1) >>> 0;
    bits.set([0, 0x80000000, 0x3f801000, 0x3f803000, 0x477fe000, 0x477ff000, 0x7f800000, 0xff800000, 0x7fc00000, 0x33000000, 0x33000001]);
    const source = new Float32Array(bits.buffer);
    const target = new Uint16Array(source.length);
    float32ArrayToFloat16Bits(source, target);
    const expected = Uint16Array.from(source, (value) => float32ToFloat16Bits(value));
    expect(Buffer.from(target.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
  });

  it('reads a view at an offset into a larger buffer', () => {
    const whole = new Float32Array([9, 1, 0.5, 9]);
    const target = new Uint16Array(2);
    float32ArrayToFloat16Bits(whole.subarray(1, 3), target);
    expect(Array.from(target)).toEqual([0x3c00, 0x3800]);
  });
});

describe('float16OverflowIndex', () => {
  it('finds the first finite value that rounds to an infinity as a half, either sign', () => {
    expect(float16OverflowIndex(new Float32Array([1, 65519, -1e6, 70000]))).toBe(2);
  });

  it('takes 65520, the tie above 65504, as an overflow, since it rounds to the even infinity', () => {
    expect(float32ToFloat16Bits(65520)).toBe(0x7c00);
    expect(float16OverflowIndex(new Float32Array([65519.99, 65520]))).toBe(1);
  });

  it('passes values that round to 65504 and below, infinities and NaNs', () => {
    expect(float16OverflowIndex(new Float32Array([65504, -65519, Infinity, -Infinity, NaN, 0]))).toBe(-1);
  });
});
