/** Weight of the newest gap in the running average of arrival gaps. */
const GAP_WEIGHT = 0.2;
/** A partial batch stops waiting when no request arrived for this many average gaps. */
const QUIET_GAPS = 2;

/**
 * Decides whether a partial batch should wait for more requests (`maxBatchDelayMs > 0`). The delay is
 * counted from the oldest queued request's arrival. The wait ends early when requests stopped arriving:
 * gaps are only learned from requests that arrived while others were in the server, so a lone client
 * (one request at a time) never waits for a batch that cannot fill.
 */
export class BatchDelay {
  private gapMs: number | undefined;
  private lastArrival = 0;

  /** Records an arrival; `concurrent` is true when other requests were queued or running at that moment. */
  arrived(now: number, concurrent: boolean): void {
    if (concurrent && this.lastArrival > 0) {
      const gap = now - this.lastArrival;
      this.gapMs = this.gapMs === undefined ? gap : this.gapMs * (1 - GAP_WEIGHT) + gap * GAP_WEIGHT;
    } else if (!concurrent) {
      this.gapMs = undefined;
    }
    this.lastArrival = now;
  }

  /** Milliseconds a partial batch headed by a request that arrived at `headArrival` should still wait (0 = go). */
  waitMs(now: number, headArrival: number, maxDelayMs: number): number {
    if (maxDelayMs <= 0 || this.gapMs === undefined) return 0;
    const until = Math.min(headArrival + maxDelayMs, this.lastArrival + QUIET_GAPS * this.gapMs);
    return Math.max(0, until - now);
  }
}
