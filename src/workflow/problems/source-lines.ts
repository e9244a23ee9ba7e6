/** A 1-based line and column. */
export interface LineColumn {
  readonly line: number;
  readonly column: number;
}

/**
 * Turns offsets into a text (UTF-16 code units, as JavaScript strings and the YAML parser count them)
 * into 1-based lines and columns. Line starts are indexed once, so each lookup is a binary search.
 */
export class SourceLines {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
    }
  }

  /** The line and column of `offset` (clamped to the text). */
  at(offset: number): LineColumn {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: Math.max(0, offset - (this.starts[low] ?? 0)) + 1 };
  }
}
