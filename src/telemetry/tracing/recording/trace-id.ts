const scratch = Buffer.alloc(16);

/** The value of one hex digit (`0-9`, `a-f`, `A-F`) from its character code; NaN for any other character. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return Number.NaN;
}

/** Eight hex digits of `hex` from `at` as an unsigned 32-bit number. */
function word(hex: string, at: number): number {
  let value = 0;
  for (let i = at; i < at + 8; i++) value = value * 16 + hexDigit(hex.charCodeAt(i));
  return value;
}

/**
 * A trace id as four 32-bit words (its 16 bytes, big-endian), spelled in hex only when read. Every span
 * of a request shares its trace's one `TraceId`: the OTLP encoding writes the words as bytes, so the id
 * is not parsed from hex for each span, and its hex spelling is made at most once per trace.
 */
export class TraceId {
  private spelled: string | undefined;

  constructor(
    readonly word0: number,
    readonly word1: number,
    readonly word2: number,
    readonly word3: number,
    hex?: string,
  ) {
    this.spelled = hex;
  }

  /** The id spelled as 32 hex digits; undefined when `hex` is not one (length or digits). */
  static fromHex(hex: string): TraceId | undefined {
    if (hex.length !== 32) return undefined;
    const words = [word(hex, 0), word(hex, 8), word(hex, 16), word(hex, 24)] as const;
    if (words.some(Number.isNaN)) return undefined;
    return new TraceId(words[0], words[1], words[2], words[3], hex);
  }

  /** 32 hex digits; lowercase unless the id was read from an uppercase spelling, which is kept. */
  get hex(): string {
    if (this.spelled === undefined) {
      scratch.writeUInt32BE(this.word0, 0);
      scratch.writeUInt32BE(this.word1, 4);
      scratch.writeUInt32BE(this.word2, 8);
      scratch.writeUInt32BE(this.word3, 12);
      this.spelled = scratch.toString('hex');
    }
    return this.spelled;
  }
}
