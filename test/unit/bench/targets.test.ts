import { describe, expect, it } from '@jest/globals';
import { checkTargets, type TargetCheck } from '../../../bench/targets.js';
import { inProcessRun, loadRun, results } from './bench-fixtures.js';

function status(checks: readonly TargetCheck[], start: string): TargetCheck {
  const check = checks.find((candidate) => candidate.target.startsWith(start));
  if (check === undefined) throw new Error(`no target starting with ${start}`);
  return check;
}

/** Every target met: batched Sluice beats the route (the CNN by 30 %) and adds little latency. */
const allMet = [
  loadRun({ setup: 'b', model: 'mlp', concurrency: 1, p50Us: 60 }),
  loadRun({ setup: 'c', model: 'mlp', concurrency: 1, p50Us: 100 }),
  loadRun({ setup: 'd', model: 'mlp', concurrency: 1, p50Us: 110 }),
  loadRun({ setup: 'b', model: 'mlp', concurrency: 16, requestsPerSecond: 15_000 }),
  loadRun({ setup: 'd', model: 'mlp', concurrency: 16, requestsPerSecond: 15_000 }),
  loadRun({ setup: 'b', model: 'cnn', concurrency: 1, p50Us: 300 }),
  loadRun({ setup: 'c', model: 'cnn', concurrency: 1, p50Us: 350 }),
  loadRun({ setup: 'd', model: 'cnn', concurrency: 1, p50Us: 420 }),
  loadRun({ setup: 'b', model: 'cnn', concurrency: 16, requestsPerSecond: 4_000 }),
  loadRun({ setup: 'd', model: 'cnn', concurrency: 16, requestsPerSecond: 5_200 }),
];
const limits = [inProcessRun('cnn', 1, 3_000), inProcessRun('cnn', 64, 6_000)];

describe('checkTargets', () => {
  it('passes every target at its bound', () => {
    expect(checkTargets(results(allMet, limits)).map((check) => check.status)).toEqual(['PASS', 'PASS', 'PASS', 'PASS', 'PASS', 'PASS']);
  });

  it('compares batched Sluice with the hand-rolled route at c=16', () => {
    const load = allMet.map((run) => (run.setup === 'd' && run.model === 'mlp' && run.concurrency === 16 ? { ...run, requestsPerSecond: 14_999 } : run));
    expect(status(checkTargets(results(load, limits)), 'mlp c=16')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('d/b = 1.00') });
  });

  it('allows batching 20 % more latency than no batching at c=1', () => {
    const load = allMet.map((run) => (run.setup === 'd' && run.model === 'mlp' && run.concurrency === 1 ? { ...run, p50Us: 121 } : run));
    expect(status(checkTargets(results(load, limits)), 'mlp c=1: p50(d)').status).toBe('FAIL');
  });

  it('allows Sluice 50 µs more than the route at c=1', () => {
    const load = allMet.map((run) => (run.setup === 'c' && run.model === 'cnn' ? { ...run, p50Us: 351 } : run));
    expect(status(checkTargets(results(load, limits)), 'cnn c=1: p50(c) − p50(b)')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('51 µs') });
  });

  it('asks the batched CNN for 1.3 times the route at c=16', () => {
    const load = allMet.map((run) => (run.setup === 'd' && run.model === 'cnn' && run.concurrency === 16 ? { ...run, requestsPerSecond: 5_199 } : run));
    expect(status(checkTargets(results(load, limits)), 'cnn c=16')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('d/b = 1.30') });
  });

  it('holds the CNN to the route, not to the in-process limit', () => {
    const check = status(checkTargets(results(allMet, [...limits, inProcessRun('cnn', 128, 70_000)])), 'cnn c=16');
    expect(check).toMatchObject({ status: 'PASS', detail: expect.stringContaining('5200/s vs 4000/s') });
  });

  it('fails a target whose runs had failed requests, however fast they were', () => {
    const load = allMet.map((run) => (run.setup === 'd' && run.model === 'mlp' && run.concurrency === 16 ? { ...run, requestsPerSecond: 90_000, non2xx: 3, errors: 1 } : run));
    expect(status(checkTargets(results(load, limits)), 'mlp c=16')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('d had 4 failed requests') });
  });

  it('skips targets whose runs were not measured', () => {
    const checks = checkTargets(results(allMet.filter((run) => run.model === 'mlp'), [], ['mlp']));
    expect(checks.map((check) => check.status)).toEqual(['PASS', 'PASS', 'PASS', 'SKIP', 'SKIP', 'SKIP']);
    expect(status(checks, 'cnn c=16').detail).toMatch(/^not measured/);
  });
});

/** `allMet` in round `round`, with MLP d at c=16 serving `mlpD` req/s against the route's 15 000. */
function roundWithMlpD(round: number, mlpD: number, failed = 0): ReturnType<typeof loadRun>[] {
  return allMet.map((run) => ({ ...run, round, ...(run.setup === 'd' && run.model === 'mlp' && run.concurrency === 16 ? { requestsPerSecond: mlpD, non2xx: failed } : {}) }));
}

describe('checkTargets over several rounds', () => {
  it('judges each target on the median of its per-round figures', () => {
    const load = [...roundWithMlpD(0, 13_500), ...roundWithMlpD(1, 16_500), ...roundWithMlpD(2, 15_300)];
    expect(status(checkTargets(results(load, limits, ['mlp', 'cnn'], 3)), 'mlp c=16')).toEqual({
      target: 'mlp c=16: req/s(d) ≥ 1.00 × req/s(b)',
      status: 'PASS',
      detail: 'd/b = 1.02, median of 3 rounds (d/b = 0.90 (13500/s vs 15000/s); d/b = 1.10 (16500/s vs 15000/s); d/b = 1.02 (15300/s vs 15000/s))',
    });
  });

  it('fails a target whose median misses, however well one round did', () => {
    const load = [...roundWithMlpD(0, 30_000), ...roundWithMlpD(1, 14_000), ...roundWithMlpD(2, 14_500)];
    expect(status(checkTargets(results(load, limits, ['mlp', 'cnn'], 3)), 'mlp c=16')).toMatchObject({ status: 'FAIL', detail: expect.stringMatching(/^d\/b = 0\.97, median of 3 rounds/) });
  });

  it('skips a target that one round did not measure', () => {
    const load = [...roundWithMlpD(0, 15_000), ...roundWithMlpD(1, 15_000).filter((run) => run.setup !== 'b')];
    expect(status(checkTargets(results(load, limits, ['mlp', 'cnn'], 2)), 'mlp c=16')).toEqual({
      target: 'mlp c=16: req/s(d) ≥ 1.00 × req/s(b)',
      status: 'SKIP',
      detail: 'not measured (mlp b and d at c=16 in round 2)',
    });
  });

  it('names the round whose runs had failed requests', () => {
    const load = [...roundWithMlpD(0, 16_000), ...roundWithMlpD(1, 16_000, 5), ...roundWithMlpD(2, 16_000)];
    expect(status(checkTargets(results(load, limits, ['mlp', 'cnn'], 3)), 'mlp c=16')).toMatchObject({
      status: 'FAIL',
      detail: expect.stringMatching(/; d had 5 failed requests in round 2$/),
    });
  });
});
