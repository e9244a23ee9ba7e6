/**
 * `npm run bench:memory`: what one more instance of a model version costs in memory. Starts Sluice with
 * the demo MLP and CNN, warms both up, scales each from 1 to 4 workers through the management API
 * (`PUT /models/<m>?min_worker=N&max_worker=N`) and reports the server's resident memory (VmRSS) after
 * each step: once the workers are up, and again after a second of requests at 4 connections per worker
 * of the largest step at every step (so that every instance has run, under the same load each time). Each figure is the median of several readings, since the V8 heap
 * and ORT's arenas move it by a few MiB on their own.
 *
 *   npm run bench:memory -- [--max-workers 4] [--json memory.json]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchModels, type BenchModel } from './bench-models.js';
import { startSluice, type BenchServer } from './bench-processes.js';
import { copyModelsToTempStore } from './bench-store.js';
import { cleanupOnInterrupt } from './child-processes.js';
import { runLoad } from './load.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { residentBytes } from './process-memory.js';
import { formatTable } from './report.js';
import { assertServes } from './server-setups.js';
import { parseBenchArgs } from './bench-args.js';

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');
const values = parseBenchArgs('npm run bench:memory --', { 'max-workers': { type: 'string', default: '4' }, json: { type: 'string' } });
const maxWorkers = Number(values['max-workers']);
if (!Number.isInteger(maxWorkers) || maxWorkers < 1) throw new Error('--max-workers must be a positive integer');

/** Resident memory after one scaling step. */
interface MemoryStep {
  readonly model: string;
  readonly workers: number;
  /** Workers the management API reported up once the step settled. */
  readonly reportedWorkers: number;
  /** Once the workers are up, before any request reached the new ones. */
  readonly rssAfterScaleBytes: number;
  /** After a second of requests. */
  readonly rssAfterLoadBytes: number;
}

const MiB = 2 ** 20;
const mib = (bytes: number): string => (bytes / MiB).toFixed(1);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Median of five VmRSS readings 200 ms apart. */
async function settledRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    await sleep(200);
    readings.push(await residentBytes(pid));
  }
  return readings.sort((x, y) => x - y)[2] ?? Number.NaN;
}

async function manage(server: BenchServer, method: string, path: string): Promise<unknown> {
  const response = await fetch(`${server.managementUrl ?? ''}${path}`, { method });
  const body = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${body}`);
  return JSON.parse(body) as unknown;
}

/** Workers of the default version that are up (not starting), from `GET /models/<m>`. */
async function readyWorkers(server: BenchServer, model: string): Promise<number> {
  const [description] = (await manage(server, 'GET', `/models/${model}`)) as { workers?: { status?: string; state?: string }[] }[];
  return (description?.workers ?? []).filter((worker) => !/start|fail/i.test(worker.status ?? worker.state ?? '')).length;
}

async function scaleTo(server: BenchServer, model: BenchModel, workers: number): Promise<MemoryStep> {
  await manage(server, 'PUT', `/models/${model.name}?min_worker=${workers}&max_worker=${workers}`);
  let reported = await readyWorkers(server, model.name);
  for (let waited = 0; reported !== workers && waited < 30_000; waited += 100) {
    await sleep(100);
    reported = await readyWorkers(server, model.name);
  }
  const rssAfterScaleBytes = await settledRss(server.pid);
  // The same load at every step, enough for every instance to run, so that only the instance count changes.
  await runLoad({ baseUrl: server.baseUrl, request: model.sluiceRequest, connections: 4 * maxWorkers, durationSeconds: 1 });
  const rssAfterLoadBytes = await settledRss(server.pid);
  return { model: model.name, workers, reportedWorkers: reported, rssAfterScaleBytes, rssAfterLoadBytes };
}

const models = benchModels(repoRoot);
const store = await copyModelsToTempStore([
  { source: models.mlp.dir, name: 'mlp' },
  { source: models.cnn.dir, name: 'cnn' },
]);
const removeStore = cleanupOnInterrupt(() => store.cleanup());
const steps: MemoryStep[] = [];
let startRss = 0;
try {
  const server = await startSluice(distRoot, store.dir, ['mlp', 'cnn']);
  try {
    for (const model of [models.mlp, models.cnn]) {
      await assertServes(server.baseUrl, model.sluiceRequest);
      // Warm-up, so that later steps see instances and not the JIT and heap growing into their first load.
      await runLoad({ baseUrl: server.baseUrl, request: model.sluiceRequest, connections: 16, durationSeconds: 2 });
    }
    startRss = await settledRss(server.pid);
    for (const model of [models.mlp, models.cnn]) {
      for (let workers = 1; workers <= maxWorkers; workers++) {
        const step = await scaleTo(server, model, workers);
        steps.push(step);
        process.stderr.write(`${model.name} × ${workers}: ${mib(step.rssAfterScaleBytes)} MiB, ${mib(step.rssAfterLoadBytes)} MiB after requests\n`);
      }
    }
  } finally {
    await server.stop();
  }
} finally {
  await removeStore();
}

const delta = (bytes: number): string => `${bytes >= 0 ? '+' : '−'}${mib(Math.abs(bytes))}`;
const rows = steps.map((step, index) => {
  const previous = steps[index - 1];
  return [
    step.model,
    step.reportedWorkers === step.workers ? String(step.workers) : `${step.workers} (${step.reportedWorkers} up)`,
    mib(step.rssAfterScaleBytes),
    delta(step.rssAfterScaleBytes - (previous?.rssAfterLoadBytes ?? startRss)),
    mib(step.rssAfterLoadBytes),
  ];
});
/** Growth from the first to the last step of a model, per added worker: when up, and after requests. */
const perInstance = [models.mlp, models.cnn].map((model) => {
  const own = steps.filter((step) => step.model === model.name);
  const first = own[0];
  const last = own[own.length - 1];
  const per = (bytes: (step: MemoryStep) => number): number =>
    first !== undefined && last !== undefined && last.workers > first.workers ? (bytes(last) - bytes(first)) / (last.workers - first.workers) : Number.NaN;
  return { model: model.name, whenUpBytes: per((step) => step.rssAfterScaleBytes), afterRequestsBytes: per((step) => step.rssAfterLoadBytes) };
});
process.stdout.write(
  [
    `\nSluice resident memory per instance, ${new Date().toISOString()}`,
    describeMachine(machineInfo()),
    `after start-up and warm-up with mlp × 1 and cnn × 1: ${mib(startRss)} MiB; each step scales one model\n`,
    formatTable(['model', 'workers', 'RSS MiB when up', 'Δ MiB scaling', 'RSS MiB after requests'], rows),
    ...perInstance.map(
      ({ model, whenUpBytes, afterRequestsBytes }) =>
        `${model}, per extra instance (1 → ${maxWorkers}): ${delta(whenUpBytes)} MiB when up, ${delta(afterRequestsBytes)} MiB after requests`,
    ),
    '',
  ].join('\n'),
);
if (values.json !== undefined) {
  await writeFile(values.json, JSON.stringify({ date: new Date().toISOString(), machine: machineInfo(), startRssBytes: startRss, steps, perInstance }, null, 2) + '\n');
}
