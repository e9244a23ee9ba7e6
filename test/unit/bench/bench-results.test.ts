import { describe, expect, it } from '@jest/globals';
import { roundsSummary } from '../../../bench/bench-results.js';
import { loadRun } from './bench-fixtures.js';

describe('roundsSummary', () => {
  const rounds = [
    loadRun({ setup: 'd', model: 'mlp', concurrency: 16, round: 0, requestsPerSecond: 9_000, p50Us: 300, p99Us: 900, maxUs: 4_000, ok: 45_000, otherCpu: 0.05 }),
    loadRun({ setup: 'd', model: 'mlp', concurrency: 16, round: 1, requestsPerSecond: 12_000, p50Us: 200, p99Us: 700, maxUs: 9_000, ok: 60_000, non2xx: 2, otherCpu: 0.4 }),
    loadRun({ setup: 'd', model: 'mlp', concurrency: 16, round: 2, requestsPerSecond: 11_000, p50Us: 250, p99Us: 1_000, maxUs: 3_000, ok: 55_000, errors: 1 }),
    loadRun({ setup: 'b', model: 'mlp', concurrency: 16, round: 0, requestsPerSecond: 1 }),
    loadRun({ setup: 'd', model: 'mlp', concurrency: 1, round: 0, requestsPerSecond: 2 }),
  ];

  it('takes the median throughput and latencies of the rounds, each on its own', () => {
    expect(roundsSummary(rounds, 'd', 'mlp', 16)).toMatchObject({ requestsPerSecond: 11_000, p50Us: 250, p99Us: 900 });
  });

  it('adds up answers, failures and seconds, and keeps the longest response and the busiest machine', () => {
    expect(roundsSummary(rounds, 'd', 'mlp', 16)).toMatchObject({ ok: 160_000, non2xx: 2, errors: 1, durationSeconds: 15, maxUs: 9_000, otherCpu: 0.4 });
  });

  it('gives a single round back as it is', () => {
    expect(roundsSummary(rounds, 'b', 'mlp', 16)).toBe(rounds[3]);
  });

  it('is undefined for what no round measured', () => {
    expect(roundsSummary(rounds, 'c', 'mlp', 16)).toBeUndefined();
  });
});
