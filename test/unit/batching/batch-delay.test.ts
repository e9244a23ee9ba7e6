import { describe, expect, it } from '@jest/globals';
import { BatchDelay } from '../../../src/batching/batch-delay.js';

/** Arrivals at `times` (ms); every one after the first arrived while others were in the server. */
function concurrentArrivals(times: readonly number[]): BatchDelay {
  const delay = new BatchDelay();
  times.forEach((t, i) => {
    delay.arrived(t, i > 0);
  });
  return delay;
}

describe('BatchDelay', () => {
  it('does not wait without a delay', () => {
    expect(concurrentArrivals([1000, 1010, 1020]).waitMs(1020, 1010, 0)).toBe(0);
  });

  it('does not wait before any arrival', () => {
    expect(new BatchDelay().waitMs(1000, 1000, 50)).toBe(0);
  });

  it('never makes a lone client wait', () => {
    const delay = new BatchDelay();
    delay.arrived(1000, false);
    delay.arrived(1100, false);
    expect(delay.waitMs(1100, 1100, 50)).toBe(0);
  });

  it('waits until two average gaps after the last arrival when that comes first', () => {
    expect(concurrentArrivals([1000, 1010, 1020]).waitMs(1020, 1010, 100)).toBe(20);
  });

  it('waits until the oldest arrival plus the delay when that comes first', () => {
    expect(concurrentArrivals([1000, 1010, 1020]).waitMs(1020, 1010, 15)).toBe(5);
  });

  it('does not wait once the oldest request has waited the delay', () => {
    expect(concurrentArrivals([1000, 1010, 1020]).waitMs(1030, 1010, 20)).toBe(0);
  });

  it('does not wait once requests stopped coming for two gaps', () => {
    expect(concurrentArrivals([1000, 1010, 1020]).waitMs(1045, 1010, 100)).toBe(0);
  });

  it('weighs the newest gap by one fifth in the average', () => {
    // Gaps 10, 10, 30: average 10 × 0.8 + 30 × 0.2 = 14, so the wait runs to 1050 + 28.
    expect(concurrentArrivals([1000, 1010, 1020, 1050]).waitMs(1050, 1010, 1000)).toBe(28);
  });

  it('forgets the gaps when a request arrives alone', () => {
    const delay = concurrentArrivals([1000, 1010, 1020]);
    delay.arrived(2000, false);
    expect(delay.waitMs(2000, 2000, 100)).toBe(0);
  });
});
