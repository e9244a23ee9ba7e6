import {
  SETUP_LABELS,
  bestInProcess,
  failuresOf,
  roundsSummary,
  type BenchResults,
  type InProcessRun,
  type LoadRun,
} from './bench-results.js';
import { type TargetCheck } from './targets.js';

/** Renders rows as a plain-text table, columns left-aligned and padded to their widest cell. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n') + '\n';
}

/** A whole number with thin thousands separators: `18 155`. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

function ratio(numerator: number | undefined, denominator: number | undefined): string {
  if (numerator === undefined || denominator === undefined || !(denominator > 0)) return '-';
  return numerator / denominator >= 10 ? (numerator / denominator).toFixed(1) : (numerator / denominator).toFixed(2);
}

function signedUs(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  return `${value >= 0 ? '+' : '−'}${formatCount(Math.abs(value))}`;
}

/**
 * The main table: per model, setup a (best in-process items/s, no concurrency) and then setups b, c, d at
 * each concurrency, over several rounds their medians ({@link roundsSummary}). A run with failed requests
 * shows their count and a `!` so it cannot be missed.
 */
export function formatResultsTable(results: BenchResults): string {
  const rows: string[][] = [];
  for (const model of results.models) {
    const best = bestInProcess(results.inProcess, model);
    if (best !== undefined) {
      rows.push([SETUP_LABELS.a, model, `batch ${best.batchSize}`, formatCount(best.itemsPerSecond), '-', '-', '0']);
    }
    for (const concurrency of results.concurrencies) {
      for (const setup of ['b', 'c', 'd'] as const) {
        const run = roundsSummary(results.load, setup, model, concurrency);
        if (run === undefined) continue;
        const failures = failuresOf(run);
        rows.push([
          SETUP_LABELS[setup],
          model,
          String(concurrency),
          formatCount(run.requestsPerSecond),
          formatCount(run.p50Us),
          formatCount(run.p99Us),
          failures === 0 ? '0' : `${formatCount(failures)} !`,
        ]);
      }
    }
  }
  return formatTable(['setup', 'model', 'c', 'req/s', 'p50 µs', 'p99 µs', 'errors'], rows);
}

/** `session.run` throughput at every batch size measured (setup a), per model. */
export function formatInProcessTable(runs: readonly InProcessRun[]): string {
  return formatTable(
    ['model', 'batch', 'threads', 'items/s', 'µs per run'],
    runs.map((run) => [
      run.model,
      String(run.batchSize),
      run.intraOpNumThreads === 0 ? `default (${run.threadsUsed === undefined || run.threadsUsed === 0 ? 'ONNX Runtime' : run.threadsUsed})` : String(run.intraOpNumThreads),
      formatCount(run.itemsPerSecond),
      formatCount(run.runUs),
    ]),
  );
}

/** Throughput ratios between the setups and latency differences, per model and concurrency (of the medians over several rounds). */
export function formatRatios(results: BenchResults): string {
  const rows: string[][] = [];
  for (const model of results.models) {
    const a = bestInProcess(results.inProcess, model)?.itemsPerSecond;
    for (const concurrency of results.concurrencies) {
      const run = (setup: LoadRun['setup']): LoadRun | undefined => roundsSummary(results.load, setup, model, concurrency);
      const [b, c, d] = [run('b'), run('c'), run('d')];
      if (b === undefined && c === undefined && d === undefined) continue;
      rows.push([
        model,
        String(concurrency),
        ratio(d?.requestsPerSecond, b?.requestsPerSecond),
        ratio(c?.requestsPerSecond, b?.requestsPerSecond),
        ratio(d?.requestsPerSecond, c?.requestsPerSecond),
        ratio(d?.requestsPerSecond, a),
        ratio(b?.requestsPerSecond, a),
        signedUs(c !== undefined && b !== undefined ? c.p50Us - b.p50Us : undefined),
        ratio(d?.p50Us, c?.p50Us),
      ]);
    }
  }
  return formatTable(['model', 'c', 'd/b', 'c/b', 'd/c', 'd/a', 'b/a', 'p50(c)−p50(b) µs', 'p50(d)/p50(c)'], rows);
}

/** One line per target: PASS, FAIL or SKIP, the target, and what was measured. */
export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks.map((check) => `${check.status.padEnd(4)}  ${check.target}: ${check.detail}\n`).join('');
}

/** Other processes' CPU use from which on a run counts as skewed, in cores. */
export const BUSY_CORES = 0.1;

/**
 * Warnings for the runs during which other processes kept at least {@link BUSY_CORES} cores busy (and
 * for the second before the start): their figures include competition for the CPUs. Empty when none.
 */
export function busyMachineWarnings(results: BenchResults): string {
  const lines: string[] = [];
  const cores = (value: number): string => `${value.toFixed(2)} cores`;
  if (results.otherCpuAtStart !== undefined && results.otherCpuAtStart >= BUSY_CORES) {
    lines.push(`before the start: ${cores(results.otherCpuAtStart)}`);
  }
  for (const run of results.inProcess) {
    if (run.otherCpu !== undefined && run.otherCpu >= BUSY_CORES) lines.push(`a ${run.model} batch ${run.batchSize}: ${cores(run.otherCpu)}`);
  }
  for (const run of results.load) {
    const round = results.rounds > 1 ? `, round ${run.round + 1}` : '';
    if (run.otherCpu !== undefined && run.otherCpu >= BUSY_CORES) lines.push(`${run.setup} ${run.model} c=${run.concurrency}${round}: ${cores(run.otherCpu)}`);
  }
  if (lines.length === 0) return '';
  return `warning: other processes used the CPUs during these runs; their figures are skewed\n${lines.map((line) => `  ${line}\n`).join('')}`;
}
