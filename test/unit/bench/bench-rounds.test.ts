import { describe, expect, it } from '@jest/globals';
import { median, medianRun, roundOrder } from '../../../bench/bench-rounds.js';

describe('bench rounds', () => {
  it('runs the setups forward in even rounds and backward in odd ones', () => {
    expect([0, 1, 2].map((round) => roundOrder(['a', 'b', 'c'], round))).toEqual([
      ['a', 'b', 'c'],
      ['c', 'b', 'a'],
      ['a', 'b', 'c'],
    ]);
  });

  it('takes the middle value, or the mean of the middle two', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('picks the run of median throughput (the lower middle for an even count)', () => {
    const runs = [{ requestsPerSecond: 30 }, { requestsPerSecond: 10 }, { requestsPerSecond: 20 }, { requestsPerSecond: 40 }];
    expect(medianRun(runs)).toBe(runs[2]);
  });
});
