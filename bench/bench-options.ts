import { parseArgs } from 'node:util';
import { SERVER_LOGS, type ServerLog } from './bench-processes.js';
import { SETUP_IDS, type SetupId } from './bench-results.js';

/** Models `npm run bench` knows, in report order. */
export const BENCH_MODEL_NAMES = ['mlp', 'cnn'] as const;

/** One of {@link BENCH_MODEL_NAMES}. */
export type BenchModelName = (typeof BENCH_MODEL_NAMES)[number];

/**
 * Rounds of `npm run bench` unless `--rounds` says otherwise: three, so that one round run while the
 * machine was busy cannot decide a target on its own.
 */
export const DEFAULT_ROUNDS = 3;

/** What one `npm run bench` measures. */
export interface BenchOptions {
  /** Seconds per load run (and the time budget of the in-process runs). */
  readonly durationSeconds: number;
  /** Seconds of load before measuring each server. */
  readonly warmupSeconds: number;
  /** How many times each server setup is measured, in alternating order; the targets are judged on the medians. */
  readonly rounds: number;
  readonly concurrencies: readonly number[];
  readonly models: readonly BenchModelName[];
  readonly setups: readonly SetupId[];
  /** Replaces the manifest's `maxBatchDelayMs` in setup d. */
  readonly maxBatchDelayMs?: number;
  /** Where setups c and d write their log. */
  readonly serverLog: ServerLog;
  /** Where to write every result as JSON. */
  readonly json?: string;
}

/** Usage text for `npm run bench -- --help` and errors. */
export const BENCH_USAGE = `usage: npm run bench -- [options]
  --duration S          seconds per load run (default 5)
  --warmup S            seconds of load before measuring each server (default 2)
  --rounds N            measure every server setup N times, in alternating order, and judge the
                        targets on the median of the rounds (default 3)
  --concurrency LIST    connections per run, e.g. 1,16,64 (default)
  --models LIST         mlp,cnn (default)
  --setups LIST         a,b,c,d (default): a in-process, b hand-rolled, c Sluice unbatched, d Sluice batched
  --max-batch-delay MS  setup d waits up to MS for fuller batches (default: the manifest's maxBatchDelayMs)
  --server-log WHERE    file (default): Sluice logs to a file, as \`sluice start\` in the background does;
                        pipe: to a pipe this process reads, so each log write wakes the load generator
  --json FILE           write every result to FILE
`;

function list(value: string, option: string): string[] {
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw new Error(`${option} takes a comma-separated list, got ${JSON.stringify(value)}`);
  return items;
}

function positiveNumber(value: string, option: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`${option} must be a positive number of seconds, got ${JSON.stringify(value)}`);
  return number;
}

function roundCount(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < 1) throw new Error(`--rounds must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return number;
}

function delayMs(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0) throw new Error(`--max-batch-delay must be a number of milliseconds ≥ 0, got ${JSON.stringify(value)}`);
  return number;
}

function serverLog(value: string): ServerLog {
  const found = SERVER_LOGS.find((log) => log === value);
  if (found === undefined) throw new Error(`--server-log must be one of ${SERVER_LOGS.join(', ')}, got ${JSON.stringify(value)}`);
  return found;
}

function oneOf<T extends string>(items: readonly string[], allowed: readonly T[], option: string): T[] {
  const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
  if (unknown.length > 0) throw new Error(`${option}: unknown ${unknown.join(', ')}; choose from ${allowed.join(', ')}`);
  // Report order, not command-line order, and each once.
  return allowed.filter((item) => items.includes(item));
}

/** Parses `npm run bench` arguments; throws an Error saying what is wrong. */
export function parseBenchOptions(args: readonly string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...args],
    options: {
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '2' },
      rounds: { type: 'string', default: String(DEFAULT_ROUNDS) },
      concurrency: { type: 'string', default: '1,16,64' },
      models: { type: 'string', default: BENCH_MODEL_NAMES.join(',') },
      setups: { type: 'string', default: SETUP_IDS.join(',') },
      'max-batch-delay': { type: 'string' },
      'server-log': { type: 'string', default: 'file' },
      json: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const concurrencies = list(values.concurrency, '--concurrency').map((item) => {
    const number = Number(item);
    if (!Number.isInteger(number) || number < 1) throw new Error(`--concurrency: ${JSON.stringify(item)} is not a positive integer`);
    return number;
  });
  return {
    durationSeconds: positiveNumber(values.duration, '--duration'),
    warmupSeconds: positiveNumber(values.warmup, '--warmup'),
    rounds: roundCount(values.rounds),
    concurrencies: [...new Set(concurrencies)],
    models: oneOf(list(values.models, '--models'), BENCH_MODEL_NAMES, '--models'),
    setups: oneOf(list(values.setups, '--setups'), SETUP_IDS, '--setups'),
    ...(values['max-batch-delay'] !== undefined ? { maxBatchDelayMs: delayMs(values['max-batch-delay']) } : {}),
    serverLog: serverLog(values['server-log']),
    ...(values.json !== undefined ? { json: values.json } : {}),
  };
}
