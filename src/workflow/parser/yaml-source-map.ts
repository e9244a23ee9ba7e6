import type { JsonPointer } from '../problems/json-pointer.js';
import { parentPointer } from '../problems/json-pointer.js';

/** Where one value of the document sits in the source (offsets into the text). */
export interface SourceSpan {
  /** The key that names this value in its mapping; absent for list items and the root. */
  readonly keyOffset?: number;
  /** The first character of the value (the quote of a quoted scalar, the `{` or first key of a mapping). */
  readonly valueOffset: number;
  /**
   * For a scalar written on one line without escapes, the offset of its first content character, so a
   * position inside the text (a `when` expression's error) can be mapped back exactly.
   */
  readonly contentOffset?: number;
}

/** Which end of a key–value pair a problem should point at. */
export type SpanAnchor = 'key' | 'value';

/**
 * The source position of every value of a parsed YAML document, addressed by JSON pointer. Built from
 * the parser's events, so it matches the data the document was constructed into.
 */
export class YamlSourceMap {
  private readonly spans = new Map<JsonPointer, SourceSpan>();

  /** Records the span of `pointer`; the first record wins (a duplicate key is refused anyway). */
  set(pointer: JsonPointer, span: SourceSpan): void {
    if (!this.spans.has(pointer)) this.spans.set(pointer, span);
  }

  /** The span recorded for exactly `pointer`. */
  get(pointer: JsonPointer): SourceSpan | undefined {
    return this.spans.get(pointer);
  }

  /**
   * The offset to report for `pointer`: its key or its value, or failing that its nearest recorded
   * ancestor's key (a missing key is reported where its parent is named).
   */
  offsetOf(pointer: JsonPointer, anchor: SpanAnchor = 'value'): number {
    const span = this.spans.get(pointer);
    if (span !== undefined) return anchor === 'key' ? (span.keyOffset ?? span.valueOffset) : span.valueOffset;
    if (pointer === '') return 0;
    return this.offsetOf(parentPointer(pointer), 'key');
  }
}
