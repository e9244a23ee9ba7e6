/*
 * Trace and span ids as 32-bit words and as hex: the recording tracer keeps ids as words (cheap to draw
 * and to write as bytes) and spells them in hex only for the API and log lines.
 */

/** The character codes of the lowercase hex digits, by value. */
const DIGITS = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));

/** The hex digit of `value`'s four bits from `shift`, as a character code. */
function digitAt(value: number, shift: number): number {
  return DIGITS[(value >>> shift) & 15] as number;
}

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

/*
 * Spelled with String.fromCharCode, one call per two words: half the time of writing the words into a
 * buffer and reading it back as hex (a native call each), and a traced request's log line spells a span
 * id every time.
 */

/** Two words, big-endian, as 16 lowercase hex digits (a span id). */
export function twoWordsHex(word0: number, word1: number): string {
  return String.fromCharCode(
    digitAt(word0, 28), digitAt(word0, 24), digitAt(word0, 20), digitAt(word0, 16), digitAt(word0, 12), digitAt(word0, 8), digitAt(word0, 4), digitAt(word0, 0),
    digitAt(word1, 28), digitAt(word1, 24), digitAt(word1, 20), digitAt(word1, 16), digitAt(word1, 12), digitAt(word1, 8), digitAt(word1, 4), digitAt(word1, 0),
  );
}

/** Four words, big-endian, as 32 lowercase hex digits (a trace id). */
export function fourWordsHex(word0: number, word1: number, word2: number, word3: number): string {
  return twoWordsHex(word0, word1) + twoWordsHex(word2, word3);
}
