const scratch = new DataView(new ArrayBuffer(4));

/** Rounds a JavaScript number to the nearest IEEE-754 half and returns its 16 raw bits. */
export function float32ToFloat16Bits(value: number): number {
  scratch.setFloat32(0, value);
  const bits = scratch.getUint32(0);
  // Rounding to float32 first may land exactly on a half-way point between two halves; which side of it
  // the number really was on then decides the rounding (+1 above, -1 below, 0 a true tie).
  const rounded = Math.abs(scratch.getFloat32(0));
  const side = Math.abs(value) > rounded ? 1 : Math.abs(value) < rounded ? -1 : 0;
  const roundsUp = (remainder: number, halfway: number, odd: boolean): boolean =>
    remainder > halfway || (remainder === halfway && (side > 0 || (side === 0 && odd)));
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
    const halfway = 1 << (shift - 1);
    if (roundsUp(remainder, halfway, (half & 1) === 1)) half += 1;
    return sign | half;
  }
  let half = (halfExponent << 10) | (mantissa >>> 13);
  const remainder = mantissa & 0x1fff;
  // A carry out of the mantissa bumps the exponent, which is exactly the rounding we want.
  if (roundsUp(remainder, 0x1000, (half & 1) === 1)) half += 1;
  return sign | half;
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
