/** A batch that finished longer ago than this says nothing about the requests to come, in milliseconds. */
const MIN_RECENT_MS = 2;
/** …or than this many delays, when the delay is longer. */
const RECENT_DELAYS = 10;

/**
 * Decides whether a partial batch should wait for more requests (`maxBatchDelayMs > 0`). The delay is
 * counted from the oldest queued request's arrival.
 *
 * It only waits when more requests are to be expected: clients answered by the last batch tend to send
 * their next request right away, so a batch that finished recently with `n` rows predicts about `n` rows
 * coming. A partial batch waits for that many, never longer than the delay. A lone client (batches of one)
 * never waits, and when requests stop coming the expectation drops with the next, smaller batch, or as
 * soon as a queued request leaves without running.
 */
export class BatchDelay {
  private lastRows = 0;
  private lastAt = -Infinity;

  /** Records a batch of `rows` rows that finished at `now`. */
  batchFinished(now: number, rows: number): void {
    this.lastRows = rows;
    this.lastAt = now;
  }

  /**
   * Stops expecting more requests until the next batch finishes: a queued request left without running
   * (its client went away, it expired, or it was refused when the version was scaled to zero workers), so
   * the last batch no longer predicts what is coming.
   */
  forget(): void {
    this.lastAt = -Infinity;
  }

  /**
   * Milliseconds a partial batch of `queuedRows` rows should still wait (0 = run now), when the
   * longest-waiting queued request arrived at `oldestArrival`.
   */
  waitMs(now: number, oldestArrival: number, maxDelayMs: number, queuedRows: number): number {
    if (maxDelayMs <= 0) return 0;
    const recent = now - this.lastAt <= Math.max(MIN_RECENT_MS, RECENT_DELAYS * maxDelayMs);
    const expected = recent ? this.lastRows : 1;
    if (queuedRows >= expected) return 0;
    return Math.max(0, oldestArrival + maxDelayMs - now);
  }
}
