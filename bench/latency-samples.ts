/**
 * Response times of one load run, kept exactly (one float per response) so that percentiles are not
 * rounded to a histogram's buckets; a 10 s run at 20 000 req/s is 1.6 MB.
 */
export class LatencySamples {
  private values = new Float64Array(4096);
  private count = 0;

  /** Records one response time, in milliseconds (fractions kept). */
  record(milliseconds: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = milliseconds;
  }

  /** Number of recorded responses. */
  get size(): number {
    return this.count;
  }

  /** The recorded times, sorted ascending (a copy). */
  sorted(): Float64Array {
    return this.values.slice(0, this.count).sort();
  }

  /** p50, p99, mean and max in microseconds; `NaN` everywhere when nothing was recorded. */
  summary(): LatencySummary {
    const sorted = this.sorted();
    let total = 0;
    for (const value of sorted) total += value;
    return {
      p50Us: percentile(sorted, 50) * 1000,
      p99Us: percentile(sorted, 99) * 1000,
      meanUs: sorted.length === 0 ? Number.NaN : (total / sorted.length) * 1000,
      maxUs: (sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] ?? Number.NaN)) * 1000,
    };
  }
}

/** Latency figures of one run, in microseconds. */
export interface LatencySummary {
  readonly p50Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly maxUs: number;
}

/**
 * The `p`-th percentile (0–100) of ascending `sorted` values by the nearest-rank method: the smallest
 * value with at least `p` % of the values at or below it. `NaN` for no values.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be within 0–100, got ${p}`);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}
