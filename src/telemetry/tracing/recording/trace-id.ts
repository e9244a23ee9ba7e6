import { fourWordsHex, hexWord } from '../hex-words.js';

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
    const words = [hexWord(hex, 0), hexWord(hex, 8), hexWord(hex, 16), hexWord(hex, 24)] as const;
    if (words.some(Number.isNaN)) return undefined;
    return new TraceId(words[0], words[1], words[2], words[3], hex);
  }

  /** 32 hex digits; lowercase unless the id was read from an uppercase spelling, which is kept. */
  get hex(): string {
    return (this.spelled ??= fourWordsHex(this.word0, this.word1, this.word2, this.word3));
  }
}
