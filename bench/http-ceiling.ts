/**
 * `npm run bench:ceiling`: how close any HTTP server on this machine can come to the in-process limit
 * (setup a) with the CNN's requests, and how close Sluice can.
 *
 * At 16 connections the server and the load generator keep every core busy, so each served item costs
 * its share of ONNX Runtime's work (at best the CPUs divided by a's items/s) plus what its request costs
 * everyone else: the server's HTTP and serving work, the load generator's, and the kernel's (the CPUs
 * divided by the requests/s of the same requests answered without compute). So served/a can be at most
 * 1 / (1 + a / R), where R is that compute-free rate. This measures R twice, in alternating rounds:
 * - the HTTP floor: a Fastify route that reads the body and answers fixed bytes, no model;
 * - Sluice serving a head-only model in the CNN's place (same input and output, next to no compute),
 *   with the CNN's batching and one ONNX Runtime thread;
 * and setup d with the real CNN, to compare the measured d/a with the ceiling its R predicts.
 *
 *   npm run bench:ceiling -- [--duration 5] [--rounds 2] [--concurrency 16] [--json FILE]
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCnnHeadModel } from '../scripts/cnn-head-model.js';
import { withRuntimeOptions } from './bench-manifest.js';
import { benchModels } from './bench-models.js';
import { median, roundOrder } from './bench-rounds.js';
import { startHttpFloor, startSluice, type BenchServer } from './bench-processes.js';
import { cleanupOnInterrupt } from './child-processes.js';
import { IN_PROCESS_BATCH_SIZES, measureSessionThroughput } from './in-process.js';
import { runLoad } from './load.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { type BenchRequest } from './request-bodies.js';
import { serverSetup } from './server-setups.js';
import { parseBenchArgs } from './bench-args.js';

/**
 * The CNN's former target at 16 connections, served ≥ 0.85 × a: what the ceiling is read against. The
 * ceiling this measures is why `bench/targets.ts` now holds the CNN to the route (d ≥ 1.3 × b) instead.
 */
const TARGET_RATIO = 0.85;
const WARM_UP_SECONDS = 2;

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');
const values = parseBenchArgs('npm run bench:ceiling --', {
  duration: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '2' },
  concurrency: { type: 'string', default: '16' },
  json: { type: 'string' },
});
const durationSeconds = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.concurrency);

function progress(text: string): void {
  process.stderr.write(text + '\n');
}

const machine = machineInfo();
const cnn = benchModels(repoRoot).cnn;

/** A temporary store holding the head-only model as `cnn`, with the CNN's manifest and one ONNX Runtime thread. */
async function headOnlyStore(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-ceiling-'));
  const cleanup = cleanupOnInterrupt(() => rm(dir, { recursive: true, force: true }));
  const modelDir = join(dir, 'cnn');
  await mkdir(modelDir);
  await writeFile(join(modelDir, 'model.onnx'), buildCnnHeadModel());
  // One thread: a spinning second thread would take CPU from the request path and lower R for nothing.
  const manifest = withRuntimeOptions(await readFile(join(cnn.dir, 'model.yaml'), 'utf8'), { intraOpNumThreads: 1 });
  await writeFile(join(modelDir, 'model.yaml'), manifest);
  return { dir, cleanup };
}

type Variant = 'floor' | 'sluice-head' | 'sluice-cnn';
const LABELS: Record<Variant, string> = {
  floor: 'HTTP floor (Fastify, no model)',
  'sluice-head': 'Sluice, head-only model (R)',
  'sluice-cnn': 'Sluice, the CNN (setup d)',
};

/** Starts `variant`'s server, warms it up, and measures its requests per second. */
async function measure(variant: Variant, headStore: string): Promise<{ requestsPerSecond: number; non2xx: number; errors: number }> {
  let server: BenchServer;
  let request: BenchRequest;
  if (variant === 'floor') {
    server = await startHttpFloor(distRoot);
    request = cnn.handRolledRequest;
  } else if (variant === 'sluice-head') {
    server = await startSluice(distRoot, headStore, ['cnn']);
    request = cnn.sluiceRequest;
  } else {
    server = await serverSetup('d', cnn, distRoot).start();
    request = cnn.sluiceRequest;
  }
  try {
    await runLoad({ baseUrl: server.baseUrl, request, connections, durationSeconds: WARM_UP_SECONDS });
    const m = await runLoad({ baseUrl: server.baseUrl, request, connections, durationSeconds });
    return { requestsPerSecond: m.requestsPerSecond, non2xx: m.non2xx, errors: m.errors };
  } finally {
    await server.stop();
  }
}

progress(`setup a: session.run of the CNN in this process at batch ${IN_PROCESS_BATCH_SIZES.join(', ')}`);
const inProcess = await measureSessionThroughput({
  model: 'cnn',
  modelPath: join(cnn.dir, 'model.onnx'),
  inputName: cnn.inputName,
  itemShape: cnn.itemShape,
  batchSizes: IN_PROCESS_BATCH_SIZES,
  secondsPerBatch: Math.min(3, Math.max(0.5, durationSeconds / 3)),
  intraOpNumThreads: 0,
  cpus: machine.cpus,
});
const best = inProcess.reduce((x, y) => (y.itemsPerSecond > x.itemsPerSecond ? y : x));
const a = best.itemsPerSecond;

const store = await headOnlyStore();
const variants: readonly Variant[] = ['floor', 'sluice-head', 'sluice-cnn'];
const runs: { round: number; variant: Variant; requestsPerSecond: number; non2xx: number; errors: number }[] = [];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const variant of roundOrder(variants, round - 1)) {
      progress(`round ${round}: ${LABELS[variant]}, c=${connections}, ${durationSeconds} s`);
      runs.push({ round, variant, ...(await measure(variant, store.dir)) });
    }
  }
} finally {
  await store.cleanup();
}

const rate = (variant: Variant): number => median(runs.filter((r) => r.variant === variant).map((r) => r.requestsPerSecond));
/** The most served/a can reach when a request path answers `requestsPerSecond` without compute. */
const ceiling = (requestsPerSecond: number): number => 1 / (1 + a / requestsPerSecond);
const neededRate = (a * TARGET_RATIO) / (1 - TARGET_RATIO);
const coreUs = (requestsPerSecond: number): number => (machine.cpus * 1e6) / requestsPerSecond;
const failed = runs.filter((r) => r.non2xx > 0 || r.errors > 0);

const lines = [
  describeMachine(machine),
  `CNN requests, c=${connections}, ${rounds} round(s) of ${durationSeconds} s per variant`,
  `a: ${a.toFixed(0)} items/s (session.run at batch ${best.batchSize})`,
  ...runs.map((r) => `  round ${r.round} ${LABELS[r.variant].padEnd(32)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s${r.non2xx + r.errors > 0 ? `  ! ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`),
  '',
  `${'setup (medians)'.padEnd(32)} ${'req/s'.padStart(7)}  ${'core-µs/request'.padStart(15)}  ceiling of served/a = 1/(1 + a/req/s)`,
  ...(['floor', 'sluice-head'] as const).map(
    (variant) => `${LABELS[variant].padEnd(32)} ${rate(variant).toFixed(0).padStart(7)}  ${coreUs(rate(variant)).toFixed(0).padStart(15)}  ${ceiling(rate(variant)).toFixed(2)}`,
  ),
  `served/a ≥ ${TARGET_RATIO} needs a compute-free rate of at least ${neededRate.toFixed(0)} req/s (${coreUs(neededRate).toFixed(0)} core-µs per request, compute aside)`,
  `Sluice with the CNN (setup d): ${rate('sluice-cnn').toFixed(0)} items/s, d/a = ${(rate('sluice-cnn') / a).toFixed(2)}; the ceiling from its head-only rate: ${ceiling(rate('sluice-head')).toFixed(2)}`,
  ...(failed.length > 0 ? [`! ${failed.length} run(s) had failed requests: their figures are not valid`] : []),
];
process.stdout.write(lines.join('\n') + '\n');
if (values.json !== undefined) {
  await writeFile(values.json, JSON.stringify({ machine, connections, durationSeconds, rounds, inProcess, a, runs, neededRate, targetRatio: TARGET_RATIO }, null, 2));
}
