/**
 * `npm run bench:liveness`: how long a liveness check (`/ping`) waits while a model whose run takes
 * hundreds of milliseconds is saturated, with `runtime.sessionThread` off (runs compute on the event
 * loop) and on (on the session thread). The baseline is `/ping` on the same server before the load
 * starts, measured in the same run. Prints each setting's idle and loaded p50, p99 and max, and the ratio
 * loaded p99 / idle p99.
 *
 *   npm run bench:liveness -- [--duration 10] [--clients 4] [--layers 2]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OnnxGraphBuilder } from '../scripts/onnx/onnx-graph-builder.js';
import { startSluice } from './bench-processes.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { parseBenchArgs } from './bench-args.js';

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const values = parseBenchArgs('npm run bench:liveness --', {
  duration: { type: 'string', default: '10' },
  clients: { type: 'string', default: '4' },
  layers: { type: 'string', default: '2' },
});
const durationMs = Number(values.duration) * 1000;
const clients = Number(values.clients);
const layers = Number(values.layers);

const FEATURES = 2048;
/** Rows each request is tiled to inside the model: what makes one run take hundreds of milliseconds. */
const TILED_ROWS = 256;
const PING_INTERVAL_MS = 50;

/**
 * A model that is slow on purpose: its one-row input is tiled to {@link TILED_ROWS} rows, multiplied
 * `layers` times by a 2048 × 2048 matrix, and averaged to one number.
 */
async function writeSlowModel(store: string): Promise<void> {
  const weights = new Float32Array(FEATURES * FEATURES);
  for (let i = 0; i < weights.length; i++) weights[i] = ((i * 7919) % 2003) / 2003 / FEATURES;
  const builder = new OnnxGraphBuilder('slow')
    .input('x', 'FP32', [1, FEATURES])
    .initializer('repeats', 'INT64', [2], BigInt64Array.from([BigInt(TILED_ROWS), 1n]))
    .initializer('w', 'FP32', [FEATURES, FEATURES], weights)
    .node('Tile', ['x', 'repeats'], ['h0']);
  for (let layer = 0; layer < layers; layer++) builder.node('MatMul', [`h${layer}`, 'w'], [`h${layer + 1}`]);
  builder.node('ReduceMean', [`h${layers}`], ['y'], { axes: [0, 1], keepdims: 1 }).output('y', 'FP32', [1, 1]);
  await mkdir(join(store, 'slow'), { recursive: true });
  await writeFile(join(store, 'slow', 'model.onnx'), builder.encode());
  await writeFile(
    join(store, 'slow', 'model.yaml'),
    'name: slow\nversion: "1"\nruntime: onnx\nmodel: model.onnx\nbatching: { maxBatchSize: 1, maxBatchDelayMs: 0 }\nworkers: { min: 1, max: 1 }\n',
  );
}

/** Milliseconds one GET of `url` takes. */
async function timeGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

/** `/ping` every {@link PING_INTERVAL_MS} for `ms`, one at a time: each check's latency. */
async function pingFor(url: string, ms: number): Promise<number[]> {
  const samples: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    samples.push(await timeGet(`${url}/ping`));
    await new Promise((resolve) => setTimeout(resolve, PING_INTERVAL_MS));
  }
  return samples;
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Figures {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly count: number;
}

const figures = (samples: readonly number[]): Figures => ({ p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples), count: samples.length });

/** Idle and loaded `/ping` figures of one Sluice with `runtime.sessionThread` set to `sessionThread`. */
async function measure(store: string, sessionThread: boolean): Promise<{ idle: Figures; loaded: Figures; runMs: number }> {
  const server = await startSluice(distRoot, store, ['slow'], { env: { ...process.env, SLUICE_RUNTIME_SESSION_THREAD: String(sessionThread) } });
  try {
    const body = JSON.stringify({ inputs: [{ name: 'x', datatype: 'FP32', shape: [1, FEATURES], data: Array.from({ length: FEATURES }, (_, i) => (i % 10) / 10) }] });
    const predict = async (): Promise<number> => {
      const started = performance.now();
      const response = await fetch(`${server.baseUrl}/v2/models/slow/infer`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`prediction answered ${response.status}`);
      return performance.now() - started;
    };
    const runMs = Math.min(await predict(), await predict(), await predict());
    const idle = await pingFor(server.baseUrl, Math.min(durationMs, 5000));
    let loading = true;
    const load = Array.from({ length: clients }, async () => {
      while (loading) {
        await predict();
      }
    });
    const loaded = await pingFor(server.baseUrl, durationMs);
    loading = false;
    await Promise.all(load);
    return { idle: figures(idle), loaded: figures(loaded), runMs };
  } finally {
    await server.stop();
  }
}

const fmt = (ms: number): string => ms.toFixed(1).padStart(8);

const store = await mkdtemp(join(tmpdir(), 'sluice-bench-liveness-'));
try {
  await writeSlowModel(store);
  console.log(describeMachine(machineInfo()));
  console.log(`a model of ${layers} 2048x2048 MatMuls over ${TILED_ROWS} rows; ${clients} clients keep it saturated for ${durationMs / 1000} s; /ping every ${PING_INTERVAL_MS} ms`);
  console.log('sessionThread  run ms   idle p50  idle p99  load p50  load p99  load max  loaded/idle p50  loaded/idle p99');
  const loadedP50: number[] = [];
  for (const sessionThread of [false, true]) {
    const { idle, loaded, runMs } = await measure(store, sessionThread);
    loadedP50.push(loaded.p50);
    console.log(
      `${String(sessionThread).padEnd(13)} ${fmt(runMs)} ${fmt(idle.p50)} ${fmt(idle.p99)} ${fmt(loaded.p50)} ${fmt(loaded.p99)} ${fmt(loaded.max)}  ${(loaded.p50 / idle.p50).toFixed(1).padStart(14)}x  ${(loaded.p99 / idle.p99).toFixed(1).padStart(14)}x`,
    );
  }
  console.log(`loaded /ping p50, sessionThread off / on: ${((loadedP50[0] ?? Number.NaN) / (loadedP50[1] ?? Number.NaN)).toFixed(1)}x`);
} finally {
  await rm(store, { recursive: true, force: true });
}
