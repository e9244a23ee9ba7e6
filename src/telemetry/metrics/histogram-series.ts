/**
 * One label set of a histogram with explicit bucket boundaries: counts, sum, minimum and maximum, kept
 * in plain numbers so that recording a value is a few comparisons and additions.
 */
export class HistogramSeries {
  /** `counts[i]` holds the values in (boundaries[i-1], boundaries[i]]; the last one holds those above every boundary. */
  readonly counts: number[];
  sum = 0;
  count = 0;
  min = Infinity;
  max = -Infinity;

  constructor(
    readonly boundaries: readonly number[],
    readonly attributes: Readonly<Record<string, string>>,
    /** When the series was created, as `[seconds, nanoseconds]` since the epoch: the start of its cumulative counts. */
    readonly startTime: [number, number],
  ) {
    this.counts = new Array<number>(boundaries.length + 1).fill(0);
  }

  /** Adds one value. NaN is ignored: it belongs to no bucket and would poison the sum. */
  record(value: number): void {
    if (Number.isNaN(value)) return;
    const boundaries = this.boundaries;
    let bucket = 0;
    while (bucket < boundaries.length && value > (boundaries[bucket] ?? Infinity)) bucket++;
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    this.sum += value;
    this.count += 1;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }
}
