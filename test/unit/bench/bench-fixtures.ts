import { type BenchResults, type InProcessRun, type LoadRun } from '../../../bench/bench-results.js';

/** A load run with round figures; `overrides` set what a test looks at. */
export function loadRun(overrides: Partial<LoadRun> & Pick<LoadRun, 'setup' | 'model' | 'concurrency'>): LoadRun {
  return {
    round: 0,
    durationSeconds: 5,
    ok: 50_000,
    requestsPerSecond: 10_000,
    p50Us: 100,
    p99Us: 400,
    meanUs: 120,
    maxUs: 2000,
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    ...overrides,
  };
}

/** An in-process run of `model` at `batchSize`. */
export function inProcessRun(model: string, batchSize: number, itemsPerSecond: number): InProcessRun {
  return { model, batchSize, intraOpNumThreads: 0, runs: 100, itemsPerSecond, runUs: (batchSize * 1e6) / itemsPerSecond };
}

/** Results of one run over `models` at c = 1 and 16, in `rounds` rounds. */
export function results(load: readonly LoadRun[], inProcess: readonly InProcessRun[] = [], models: readonly string[] = ['mlp', 'cnn'], rounds = 1): BenchResults {
  return {
    date: '2026-12-01T00:00:00.000Z',
    machine: { cpus: 2, cpuModel: 'test', memoryGiB: 8, node: 'v20', onnxruntime: '1.30.0', platform: 'linux' },
    durationSeconds: 5,
    rounds,
    concurrencies: [1, 16],
    models,
    serverLog: 'file',
    inProcess,
    load,
  };
}
