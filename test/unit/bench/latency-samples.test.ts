import { describe, expect, it } from '@jest/globals';
import { LatencySamples, percentile } from '../../../bench/latency-samples.js';

describe('percentile', () => {
  const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);

  it('takes the nearest rank', () => {
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
  });

  it('answers the smallest value for p = 0 and the only value of one', () => {
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
  });

  it('is NaN without values and refuses p outside 0–100', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile(values, 101)).toThrow(RangeError);
    expect(() => percentile(values, Number.NaN)).toThrow(RangeError);
  });
});

describe('LatencySamples', () => {
  it('keeps fractional milliseconds and reports microseconds', () => {
    const samples = new LatencySamples();
    for (const ms of [0.25, 0.05, 0.1, 0.2, 0.15]) samples.record(ms);
    expect(samples.size).toBe(5);
    const summary = samples.summary();
    expect(summary.p50Us).toBeCloseTo(150, 6);
    expect(summary.p99Us).toBeCloseTo(250, 6);
    expect(summary.meanUs).toBeCloseTo(150, 6);
    expect(summary.maxUs).toBeCloseTo(250, 6);
  });

  it('grows past its initial capacity without losing samples', () => {
    const samples = new LatencySamples();
    for (let i = 10_000; i >= 1; i--) samples.record(i / 1000);
    expect(samples.size).toBe(10_000);
    expect(samples.sorted()[0]).toBe(0.001);
    expect(samples.summary().p99Us).toBeCloseTo(9900, 6);
  });

  it('summarises nothing as NaN', () => {
    const summary = new LatencySamples().summary();
    expect([summary.p50Us, summary.p99Us, summary.meanUs, summary.maxUs].every(Number.isNaN)).toBe(true);
  });
});
