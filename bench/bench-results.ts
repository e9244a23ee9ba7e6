import { median } from './bench-rounds.js';

/**
 * The four setups every model is measured with:
 * - `a`: `session.run` in the benchmark process at the best batch size (the throughput limit);
 * - `b`: the hand-rolled Fastify + onnxruntime-node server, one run per request;
 * - `c`: Sluice with batching off (`maxBatchSize: 1`);
 * - `d`: Sluice with the manifest's dynamic batching.
 */
export type SetupId = 'a' | 'b' | 'c' | 'd';

/** Every setup, in report order. */
export const SETUP_IDS: readonly SetupId[] = ['a', 'b', 'c', 'd'];

/** Short description of each setup for tables. */
export const SETUP_LABELS: Readonly<Record<SetupId, string>> = {
  a: 'a in-process session.run',
  b: 'b hand-rolled Fastify',
  c: 'c Sluice, batching off',
  d: 'd Sluice, dynamic batching',
};

/** Throughput of `session.run` in the benchmark process at one batch size. */
export interface InProcessRun {
  readonly model: string;
  readonly batchSize: number;
  readonly intraOpNumThreads: number;
  /** Threads the session was given: `intraOpNumThreads`, with 0 counted out as Sluice does (0 when it could not count). */
  readonly threadsUsed?: number;
  readonly runs: number;
  readonly itemsPerSecond: number;
  /** Mean time of one `session.run`, in microseconds. */
  readonly runUs: number;
  /** Cores other processes kept busy meanwhile (Linux only). */
  readonly otherCpu?: number;
}

/** One load run against a server at one concurrency. */
export interface LoadRun {
  readonly setup: Exclude<SetupId, 'a'>;
  readonly model: string;
  readonly concurrency: number;
  /** The round it belongs to, from 0 (see `--rounds`). */
  readonly round: number;
  readonly durationSeconds: number;
  /** 2xx responses. */
  readonly ok: number;
  /** 2xx responses per second. */
  readonly requestsPerSecond: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly meanUs: number;
  readonly maxUs: number;
  /** Responses with a status outside 200–299. */
  readonly non2xx: number;
  /** Connection errors and timeouts. */
  readonly errors: number;
  readonly timeouts: number;
  /** Cores processes other than the benchmark and the server kept busy meanwhile (Linux only). */
  readonly otherCpu?: number;
}

/** Everything one `npm run bench` measured, as written by `--json`. */
export interface BenchResults {
  readonly date: string;
  readonly machine: MachineInfo;
  readonly durationSeconds: number;
  /** How many times every server setup was measured, in alternating order. */
  readonly rounds: number;
  readonly concurrencies: readonly number[];
  readonly models: readonly string[];
  /** Setup d's `maxBatchDelayMs` when `--max-batch-delay` replaced the manifest's. */
  readonly maxBatchDelayMs?: number;
  /** Where setups c and d wrote their log: `file` or `pipe` (see `--server-log`). */
  readonly serverLog: string;
  readonly inProcess: readonly InProcessRun[];
  readonly load: readonly LoadRun[];
  /** Cores other processes kept busy in the second before the benchmark started (Linux only). */
  readonly otherCpuAtStart?: number;
}

/** Where the figures were measured. */
export interface MachineInfo {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly onnxruntime: string;
  readonly platform: string;
}

/** Failed requests of a run: non-2xx answers, connection errors and timeouts. */
export function failuresOf(run: LoadRun): number {
  return run.non2xx + run.errors;
}

/** The best in-process throughput of `model` (setup a), or undefined when it was not measured. */
export function bestInProcess(runs: readonly InProcessRun[], model: string): InProcessRun | undefined {
  let best: InProcessRun | undefined;
  for (const run of runs) {
    if (run.model === model && (best === undefined || run.itemsPerSecond > best.itemsPerSecond)) best = run;
  }
  return best;
}

/** The load run of `setup` on `model` at `concurrency` in `round`, if measured. */
export function findLoadRun(runs: readonly LoadRun[], setup: LoadRun['setup'], model: string, concurrency: number, round: number): LoadRun | undefined {
  return runs.find((run) => run.setup === setup && run.model === model && run.concurrency === concurrency && run.round === round);
}

/**
 * The load runs of `setup` on `model` at `concurrency` over every round, summed up as one: the median
 * throughput and latencies of the rounds, their failures added up, the busiest machine any of them met.
 * Undefined when no round measured it. A single round comes back as it is.
 */
export function roundsSummary(runs: readonly LoadRun[], setup: LoadRun['setup'], model: string, concurrency: number): LoadRun | undefined {
  const measured = runs.filter((run) => run.setup === setup && run.model === model && run.concurrency === concurrency);
  const [first] = measured;
  if (first === undefined || measured.length === 1) return first;
  const middle = (pick: (run: LoadRun) => number): number => median(measured.map(pick));
  const total = (pick: (run: LoadRun) => number): number => measured.reduce((sum, run) => sum + pick(run), 0);
  const busiest = Math.max(...measured.map((run) => run.otherCpu ?? Number.NEGATIVE_INFINITY));
  return {
    setup,
    model,
    concurrency,
    round: first.round,
    durationSeconds: total((run) => run.durationSeconds),
    ok: total((run) => run.ok),
    requestsPerSecond: middle((run) => run.requestsPerSecond),
    p50Us: middle((run) => run.p50Us),
    p99Us: middle((run) => run.p99Us),
    meanUs: middle((run) => run.meanUs),
    maxUs: Math.max(...measured.map((run) => run.maxUs)),
    non2xx: total((run) => run.non2xx),
    errors: total((run) => run.errors),
    timeouts: total((run) => run.timeouts),
    ...(Number.isFinite(busiest) ? { otherCpu: busiest } : {}),
  };
}
