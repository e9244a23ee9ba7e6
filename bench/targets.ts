import { failuresOf, findLoadRun, type BenchResults, type LoadRun } from './bench-results.js';
import { median } from './bench-rounds.js';

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
  const rounds = new Set(runs.map((run) => run.round)).size;
  return failed.map((run) => `${run.setup} had ${failuresOf(run)} failed requests${rounds > 1 ? ` in round ${run.round + 1}` : ''}`).join(', ');
}

function verdict(ok: boolean, detail: string, runs: readonly LoadRun[]): Omit<TargetCheck, 'target'> {
  const failures = withFailures(runs);
  if (failures !== undefined) return { status: 'FAIL', detail: `${detail}; ${failures}` };
  return { status: ok ? 'PASS' : 'FAIL', detail };
}

/** What one round measured for a target: the figure, how to show it, and the runs it came from. */
interface RoundFigure {
  readonly value: number;
  readonly detail: string;
  readonly runs: readonly LoadRun[];
}

/** A target's check over every round: its figure per round, or what was not measured. */
interface RoundedTarget {
  readonly target: string;
  /** What each round must have measured, e.g. `mlp b and d at c=16`. */
  readonly needs: string;
  figure(load: readonly LoadRun[], round: number): RoundFigure | undefined;
  /** The figure's name and value, as `d/b = 1.02`. */
  named(value: number): string;
  met(value: number): boolean;
}

/**
 * A target judged on the median of its per-round figures: each round measured every setup once, in
 * alternating order, so a figure of one round compares runs made minutes apart, and the median keeps a
 * round that met a busy machine from deciding the verdict. One round is judged as it is.
 */
function judgedOverRounds(rounded: RoundedTarget): Target {
  return {
    target: rounded.target,
    check: ({ load, rounds }) => {
      const figures: RoundFigure[] = [];
      for (let round = 0; round < rounds; round++) {
        const figure = rounded.figure(load, round);
        if (figure === undefined) return missing(rounds === 1 ? rounded.needs : `${rounded.needs} in round ${round + 1}`);
        figures.push(figure);
      }
      const runs = figures.flatMap((figure) => figure.runs);
      const [only] = figures;
      if (only !== undefined && figures.length === 1) return verdict(rounded.met(only.value), only.detail, runs);
      const value = median(figures.map((figure) => figure.value));
      const detail = `${rounded.named(value)}, median of ${figures.length} rounds (${figures.map((figure) => figure.detail).join('; ')})`;
      return verdict(rounded.met(value), detail, runs);
    },
  };
}

/** Batched Sluice at least `minRatio` times as fast as the hand-rolled route under concurrency. */
function throughputVersusHandRolled(model: string, concurrency: number, minRatio: number): Target {
  const named = (ratio: number): string => `d/b = ${ratio.toFixed(2)}`;
  return judgedOverRounds({
    target: `${model} c=${concurrency}: req/s(d) ≥ ${minRatio.toFixed(2)} × req/s(b)`,
    needs: `${model} b and d at c=${concurrency}`,
    figure: (load, round) => {
      const b = findLoadRun(load, 'b', model, concurrency, round);
      const d = findLoadRun(load, 'd', model, concurrency, round);
      if (b === undefined || d === undefined) return undefined;
      const value = d.requestsPerSecond / b.requestsPerSecond;
      return { value, detail: `${named(value)} (${perSecond(d.requestsPerSecond)} vs ${perSecond(b.requestsPerSecond)})`, runs: [b, d] };
    },
    named,
    met: (ratio) => ratio >= minRatio,
  });
}

/** Batching must not cost latency when there is nothing to batch. */
function batchingLatencyAlone(model: string, maxRatio: number): Target {
  const named = (ratio: number): string => `p50(d)/p50(c) = ${ratio.toFixed(2)}`;
  return judgedOverRounds({
    target: `${model} c=1: p50(d) ≤ ${maxRatio.toFixed(1)} × p50(c)`,
    needs: `${model} c and d at c=1`,
    figure: (load, round) => {
      const c = findLoadRun(load, 'c', model, 1, round);
      const d = findLoadRun(load, 'd', model, 1, round);
      if (c === undefined || d === undefined) return undefined;
      const value = d.p50Us / c.p50Us;
      return { value, detail: `${named(value)} (${us(d.p50Us)} vs ${us(c.p50Us)})`, runs: [c, d] };
    },
    named,
    met: (ratio) => ratio <= maxRatio,
  });
}

/** Sluice's own per-request overhead over the bare route. */
function overheadAlone(model: string, maxUs: number): Target {
  const named = (overhead: number): string => `p50(c) − p50(b) = ${us(overhead)}`;
  return judgedOverRounds({
    target: `${model} c=1: p50(c) − p50(b) ≤ ${maxUs} µs`,
    needs: `${model} b and c at c=1`,
    figure: (load, round) => {
      const b = findLoadRun(load, 'b', model, 1, round);
      const c = findLoadRun(load, 'c', model, 1, round);
      if (b === undefined || c === undefined) return undefined;
      const value = c.p50Us - b.p50Us;
      return { value, detail: `${named(value)} (${us(c.p50Us)} vs ${us(b.p50Us)})`, runs: [b, c] };
    },
    named,
    met: (overhead) => overhead <= maxUs,
  });
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
