import { describe, expect, it } from '@jest/globals';
import { BatchDelay } from '../../../src/batching/batch-delay.js';

describe('BatchDelay', () => {
  it('never waits without a delay', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 16);
    expect(delay.waitMs(100.1, 100.1, 0, 1)).toBe(0);
  });

  it('never waits before any batch finished (nothing says more requests are coming)', () => {
    expect(new BatchDelay().waitMs(10, 10, 5, 1)).toBe(0);
  });

  it('never waits for a lone client whose last batch held one request', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 1);
    expect(delay.waitMs(100.05, 100.05, 5, 1)).toBe(0);
  });

  it('waits up to the delay, counted from the head’s arrival, for as many rows as the last batch had', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 16);
    expect(delay.waitMs(100.3, 100.1, 1, 4)).toBeCloseTo(0.8, 10);
  });

  it('stops waiting once the queue holds as many rows as the last batch', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 16);
    expect(delay.waitMs(100.3, 100.1, 1, 16)).toBe(0);
  });

  it('does not wait past the delay', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 16);
    expect(delay.waitMs(101.5, 100.1, 1, 4)).toBe(0);
  });

  it('forgets a batch that finished long ago', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 16);
    expect(delay.waitMs(200, 200, 1, 1)).toBe(0);
  });

  it('counts a batch as recent for ten delays when the delay is long', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 8);
    expect(delay.waitMs(140, 140, 5, 1)).toBe(5);
  });

  it('expects nothing after forget, until the next batch finishes', () => {
    const delay = new BatchDelay();
    delay.batchFinished(100, 16);
    delay.forget();
    const afterForget = delay.waitMs(100.3, 100.1, 1, 4);
    delay.batchFinished(100.4, 16);
    expect([afterForget, delay.waitMs(100.5, 100.45, 1, 4)]).toEqual([0, expect.closeTo(0.95, 10)]);
  });
});
