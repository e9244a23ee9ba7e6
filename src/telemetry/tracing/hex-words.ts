/*
 * Trace and span ids as 32-bit words and as hex: the recording tracer keeps ids as words (cheap to draw
 * and to write as bytes) and spells them in hex only for the API and log lines.
 */

const scratch = Buffer.alloc(16);

/** The value of one hex digit (`0-9`, `a-f`, `A-F`) from its character code; NaN for any other character. */
export function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return Number.NaN;
}

/** Eight hex digits of `hex` from `at` as an unsigned 32-bit number; NaN when one of them is not a hex digit. */
export function hexWord(hex: string, at: number): number {
  let value = 0;
  for (let i = at; i < at + 8; i++) value = value * 16 + hexDigit(hex.charCodeAt(i));
  return value;
}

/** Two words, big-endian, as 16 lowercase hex digits (a span id). */
export function twoWordsHex(word0: number, word1: number): string {
  scratch.writeUInt32BE(word0 >>> 0, 0);
  scratch.writeUInt32BE(word1 >>> 0, 4);
  return scratch.toString('hex', 0, 8);
}

/** Four words, big-endian, as 32 lowercase hex digits (a trace id). */
export function fourWordsHex(word0: number, word1: number, word2: number, word3: number): string {
  scratch.writeUInt32BE(word0 >>> 0, 0);
  scratch.writeUInt32BE(word1 >>> 0, 4);
  scratch.writeUInt32BE(word2 >>> 0, 8);
  scratch.writeUInt32BE(word3 >>> 0, 12);
  return scratch.toString('hex');
}
