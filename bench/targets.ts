import { failuresOf, findLoadRun, type BenchResults, type LoadRun } from './bench-results.js';

/** Outcome of one target: met, missed, or not measured in this run. */
export type TargetStatus = 'PASS' | 'FAIL' | 'SKIP';

/** One checked target. */
export interface TargetCheck {
  readonly target: string;
  readonly status: TargetStatus;
  /** What was measured, or why it could not be checked. */
  readonly detail: string;
}

/** A target as data: what it says and how to check it against one run's results. */
export interface Target {
  readonly target: string;
  check(results: BenchResults): Omit<TargetCheck, 'target'>;
}

const us = (value: number): string => `${Math.round(value)} µs`;
const perSecond = (value: number): string => `${Math.round(value)}/s`;

function missing(what: string): Omit<TargetCheck, 'target'> {
  return { status: 'SKIP', detail: `not measured (${what})` };
}

/** A run with failed requests cannot vouch for anything: its figures describe errors, not serving. */
function withFailures(runs: readonly LoadRun[]): string | undefined {
  const failed = runs.filter((run) => failuresOf(run) > 0);
  if (failed.length === 0) return undefined;
  return failed.map((run) => `${run.setup} had ${failuresOf(run)} failed requests`).join(', ');
}

function verdict(ok: boolean, detail: string, runs: readonly LoadRun[]): Omit<TargetCheck, 'target'> {
  const failures = withFailures(runs);
  if (failures !== undefined) return { status: 'FAIL', detail: `${detail}; ${failures}` };
  return { status: ok ? 'PASS' : 'FAIL', detail };
}

/** Batched Sluice at least `minRatio` times as fast as the hand-rolled route under concurrency. */
function throughputVersusHandRolled(model: string, concurrency: number, minRatio: number): Target {
  return {
    target: `${model} c=${concurrency}: req/s(d) ≥ ${minRatio.toFixed(2)} × req/s(b)`,
    check: ({ load }) => {
      const b = findLoadRun(load, 'b', model, concurrency);
      const d = findLoadRun(load, 'd', model, concurrency);
      if (b === undefined || d === undefined) return missing(`${model} b and d at c=${concurrency}`);
      const ratio = d.requestsPerSecond / b.requestsPerSecond;
      return verdict(ratio >= minRatio, `d/b = ${ratio.toFixed(2)} (${perSecond(d.requestsPerSecond)} vs ${perSecond(b.requestsPerSecond)})`, [b, d]);
    },
  };
}

/** Batching must not cost latency when there is nothing to batch. */
function batchingLatencyAlone(model: string, maxRatio: number): Target {
  return {
    target: `${model} c=1: p50(d) ≤ ${maxRatio.toFixed(1)} × p50(c)`,
    check: ({ load }) => {
      const c = findLoadRun(load, 'c', model, 1);
      const d = findLoadRun(load, 'd', model, 1);
      if (c === undefined || d === undefined) return missing(`${model} c and d at c=1`);
      const ratio = d.p50Us / c.p50Us;
      return verdict(ratio <= maxRatio, `p50(d)/p50(c) = ${ratio.toFixed(2)} (${us(d.p50Us)} vs ${us(c.p50Us)})`, [c, d]);
    },
  };
}

/** Sluice's own per-request overhead over the bare route. */
function overheadAlone(model: string, maxUs: number): Target {
  return {
    target: `${model} c=1: p50(c) − p50(b) ≤ ${maxUs} µs`,
    check: ({ load }) => {
      const b = findLoadRun(load, 'b', model, 1);
      const c = findLoadRun(load, 'c', model, 1);
      if (b === undefined || c === undefined) return missing(`${model} b and c at c=1`);
      const overhead = c.p50Us - b.p50Us;
      return verdict(overhead <= maxUs, `p50(c) − p50(b) = ${us(overhead)} (${us(c.p50Us)} vs ${us(b.p50Us)})`, [b, c]);
    },
  };
}

/**
 * Sluice's performance targets. The c=1 latency targets are checked for every model: batching and
 * Sluice's per-request work should cost the same whatever the model computes. The CNN at 16 connections
 * is held against the hand-rolled route measured in the same run, not against setup a: a served request
 * shares the two cores with its load generator and a's runs do not, so a ratio to a says as much about
 * the machine as about Sluice (docs/performance.md).
 */
export const TARGETS: readonly Target[] = [
  throughputVersusHandRolled('mlp', 16, 1.0),
  batchingLatencyAlone('mlp', 1.2),
  overheadAlone('mlp', 50),
  batchingLatencyAlone('cnn', 1.2),
  overheadAlone('cnn', 50),
  throughputVersusHandRolled('cnn', 16, 1.3),
];

/** Checks every target against one run's results. */
export function checkTargets(results: BenchResults, targets: readonly Target[] = TARGETS): TargetCheck[] {
  return targets.map((target) => ({ target: target.target, ...target.check(results) }));
}
