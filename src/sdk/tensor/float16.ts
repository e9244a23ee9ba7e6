const scratch = new DataView(new ArrayBuffer(4));

/**
 * Whether a value rounds up to the next half: above the half-way point, or on it with `side` saying the
 * number was really above it (+1), or a true tie (0) with an odd half, which rounds to even.
 */
function roundsUp(remainder: number, halfway: number, odd: boolean, side: number): boolean {
  return remainder > halfway || (remainder === halfway && (side > 0 || (side === 0 && odd)));
}

/** The raw bits of the half nearest to the float32 whose raw bits are `bits`; `side` as in {@link roundsUp}. */
function halfBitsOfFloat32(bits: number, side: number): number {
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0); // NaN keeps a quiet bit
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00; // overflow → infinity
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign; // underflow → signed zero
    mantissa |= 0x800000;
    const shift = 14 - halfExponent;
    let half = mantissa >>> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    if (roundsUp(remainder, 1 << (shift - 1), (half & 1) === 1, side)) half += 1;
    return sign | half;
  }
  let half = (halfExponent << 10) | (mantissa >>> 13);
  // A carry out of the mantissa bumps the exponent, which is exactly the rounding we want.
  if (roundsUp(mantissa & 0x1fff, 0x1000, (half & 1) === 1, side)) half += 1;
  return sign | half;
}

/** Rounds a JavaScript number to the nearest IEEE-754 half and returns its 16 raw bits. */
export function float32ToFloat16Bits(value: number): number {
  scratch.setFloat32(0, value);
  // Rounding to float32 first may land exactly on a half-way point between two halves; which side of it
  // the number really was on then decides the rounding (+1 above, -1 below, 0 a true tie).
  const rounded = Math.abs(scratch.getFloat32(0));
  const side = Math.abs(value) > rounded ? 1 : Math.abs(value) < rounded ? -1 : 0;
  return halfBitsOfFloat32(scratch.getUint32(0), side);
}

/**
 * Rounds every element of `source` to the nearest half, writing the raw bits to `target` (as long as
 * `source`). The same results as {@link float32ToFloat16Bits} per element, several times faster: float32
 * elements need no tie-breaking, and their bits are read through an integer view of the same memory.
 */
export function float32ArrayToFloat16Bits(source: Float32Array, target: Uint16Array): void {
  const bits = new Uint32Array(source.buffer, source.byteOffset, source.length);
  for (let i = 0; i < bits.length; i += 1) {
    const value = bits[i] ?? 0;
    const exponent = (value >>> 23) & 0xff;
    if (exponent <= 112 || exponent >= 143) {
      target[i] = halfBitsOfFloat32(value, 0);
      continue;
    }
    // A normal half, the common case, inline: round to nearest, ties to even, without a branch (the
    // 13 dropped bits plus 0xfff plus the odd bit carry into bit 13 exactly when the half rounds up).
    const half = ((value >>> 16) & 0x8000) | ((exponent - 112) << 10) | ((value & 0x7fffff) >>> 13);
    target[i] = half + (((value & 0x1fff) + 0xfff + (half & 1)) >>> 13);
  }
}

/** Expands 16 raw IEEE-754 half bits to a JavaScript number. */
export function float16BitsToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** The smallest magnitude that rounds to an infinity as a half: the tie above 65504 rounds to even, upwards. */
const FLOAT16_OVERFLOW = 65520;

/**
 * The index of the first element of `values` that is finite but rounds to an infinity as a half (a
 * magnitude of 65520 or more), or -1 when there is none. Infinities and NaNs do not count: they stay
 * what they are.
 */
export function float16OverflowIndex(values: Float32Array): number {
  for (let i = 0; i < values.length; i += 1) {
    const magnitude = Math.abs(values[i] ?? 0);
    if (magnitude >= FLOAT16_OVERFLOW && magnitude !== Infinity) return i;
  }
  return -1;
}
