/**
 * `npm run bench:cpu`: the CPU time a server's JavaScript thread spends per answered request, for the
 * setups of `npm run bench` (b, the hand-rolled route; c, Sluice with batching off; d, with the
 * manifest's batching), and with `--against DIR` for the same setups of another build of Sluice (a
 * checkout with `dist/` built, such as a `git worktree` of an earlier commit), measured side by side.
 *
 * What it answers is whether a change costs each request CPU, which on a shared machine the wall-clock
 * figures of `npm run bench` cannot tell apart from what else the machine does. The servers of every
 * build run at once; the load goes to one at a time in short bursts (`--burst-seconds`), in alternating
 * order, `--bursts` times, so that a change in the rest of the machine weighs on every build alike
 * within seconds. CPU time is read from the main thread's `schedstat` (nanoseconds; Linux only), which
 * counts the thread's own running time and not the time it waited for a core.
 *
 * Prints per model, setup and concurrency each build's mean CPU per request over all bursts, and the
 * median and interquartile range of the ratio of the two builds' CPU per request in bursts run one
 * after the other: a median below 1 with the range below 1 too says this build costs less.
 *
 * `--without-lane` compares this build with itself without the inference lane (its inference port
 * answering every request through Fastify and Nest, as it does once a plugin mounts a Nest module
 * there): what the lane saves each request it answers.
 *
 *   npm run bench:cpu -- [--against DIR | --without-lane] [--models mlp,cnn] [--setups c,d] [--concurrency 1,16] [--bursts 20] [--burst-seconds 1] [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as BenchModels from './bench-models.js';
import type * as ServerSetups from './server-setups.js';
import { BENCH_MODEL_NAMES, type BenchModelName } from './bench-options.js';
import type { BenchServer } from './bench-processes.js';
import { median, roundOrder } from './bench-rounds.js';
import { mainThreadCpuNs } from './cpu-usage.js';
import { runLoad } from './load.js';
import { describeMachine, machineInfo } from './machine-info.js';
import type { BenchRequest } from './request-bodies.js';
import { parseBenchArgs } from './bench-args.js';

const WARM_UP_SECONDS = 2;
const SETUPS = ['b', 'c', 'd'] as const;
type Setup = (typeof SETUPS)[number];

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const values = parseBenchArgs('npm run bench:cpu --', {
  against: { type: 'string' },
  'without-lane': { type: 'boolean', default: false },
  models: { type: 'string', default: BENCH_MODEL_NAMES.join(',') },
  setups: { type: 'string', default: 'c,d' },
  concurrency: { type: 'string', default: '1,16' },
  bursts: { type: 'string', default: '20' },
  'burst-seconds': { type: 'string', default: '1' },
  json: { type: 'string' },
});

function listOf<T extends string>(text: string, allowed: readonly T[], what: string): T[] {
  return text.split(',').map((item) => {
    if (!(allowed as readonly string[]).includes(item)) throw new Error(`unknown ${what} ${item}; the ${what}s are ${allowed.join(', ')}`);
    return item as T;
  });
}

const modelNames = listOf(values.models, BENCH_MODEL_NAMES, 'model');
const setups = listOf(values.setups, SETUPS, 'setup');
const concurrencies = values.concurrency.split(',').map(Number);
const bursts = Number(values.bursts);
const burstSeconds = Number(values['burst-seconds']);

/** One build of Sluice: where its `dist/` is, and its benchmark modules. */
interface Build {
  readonly name: string;
  readonly distRoot: string;
  readonly models: ReturnType<typeof BenchModels.benchModels>;
  readonly serverSetup: typeof ServerSetups.serverSetup;
}

/**
 * The build under `dist` (its repository one level up), with its own benchmark modules: servers of that
 * build are started as it starts them, with `options` when given (only for this build, by `--without-lane`:
 * an older build's setups may not know them).
 */
async function buildAt(name: string, dist: string, options?: ServerSetups.SluiceSetupOptions): Promise<Build> {
  const models = (await import(pathToFileURL(join(dist, 'bench', 'bench-models.js')).href)) as typeof BenchModels;
  const setupsModule = (await import(pathToFileURL(join(dist, 'bench', 'server-setups.js')).href)) as typeof ServerSetups;
  const serverSetup: typeof ServerSetups.serverSetup = options === undefined ? setupsModule.serverSetup : (setup, model, root) => setupsModule.serverSetup(setup, model, root, options);
  return { name, distRoot: dist, models: models.benchModels(join(dist, '..')), serverSetup };
}

/** The build to compare with: another checkout's (`--against`), or this one without the inference lane (`--without-lane`). */
async function otherBuild(): Promise<Build | undefined> {
  if (values.against !== undefined && values['without-lane']) throw new Error('--against and --without-lane each name what to compare with; give one of them');
  if (values.against !== undefined) return buildAt('against', join(resolve(values.against), 'dist'));
  if (values['without-lane']) return buildAt('no lane', distRoot, { inferenceLane: false });
  return undefined;
}

/** One server under load in the bursts: its build, and what its bursts measured. */
interface Measured {
  readonly build: Build;
  readonly server: BenchServer;
  readonly request: BenchRequest;
  /** Main-thread CPU per answered request of each burst, in µs. */
  readonly bursts: number[];
  cpuNs: number;
  answered: number;
  failed: number;
}

/** One burst of `measured`'s server: its main thread's CPU per answered request. */
async function burst(measured: Measured, connections: number): Promise<void> {
  const before = await mainThreadCpuNs(measured.server.pid);
  const load = await runLoad({ baseUrl: measured.server.baseUrl, request: measured.request, connections, durationSeconds: burstSeconds });
  const used = (await mainThreadCpuNs(measured.server.pid)) - before;
  measured.cpuNs += used;
  measured.answered += load.ok;
  measured.failed += load.non2xx + load.errors;
  measured.bursts.push(load.ok > 0 ? used / 1000 / load.ok : Number.NaN);
}

/** The quartile `q` (0.25, 0.5, 0.75) of `values`, by the nearest rank. */
function quartile(values: readonly number[], q: number): number {
  const sorted = [...values].filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** What one model, setup and concurrency measured, per build, and the ratio of burst pairs. */
interface Comparison {
  readonly model: BenchModelName;
  readonly setup: Setup;
  readonly concurrency: number;
  readonly builds: readonly { readonly build: string; readonly cpuUsPerRequest: number; readonly medianBurstUs: number; readonly answered: number; readonly failed: number }[];
  /** This build's CPU per request over the other's, per pair of bursts: median and quartiles. */
  readonly pairedRatio?: { readonly median: number; readonly q1: number; readonly q3: number };
}

async function compare(builds: readonly Build[], model: BenchModelName, setup: Setup, connections: number): Promise<Comparison> {
  const measured: Measured[] = [];
  try {
    for (const build of builds) {
      const started = build.serverSetup(setup, build.models[model], build.distRoot);
      measured.push({ build, server: await started.start(), request: started.request, bursts: [], cpuNs: 0, answered: 0, failed: 0 });
    }
    for (const m of measured) await runLoad({ baseUrl: m.server.baseUrl, request: m.request, connections, durationSeconds: WARM_UP_SECONDS });
    for (let round = 0; round < bursts; round++) {
      for (const m of roundOrder(measured, round)) await burst(m, connections);
    }
  } finally {
    for (const m of measured) await m.server.stop();
  }
  const [own, other] = measured;
  const ratios = own !== undefined && other !== undefined ? own.bursts.map((us, i) => us / (other.bursts[i] ?? Number.NaN)) : [];
  return {
    model,
    setup,
    concurrency: connections,
    builds: measured.map((m) => ({ build: m.build.name, cpuUsPerRequest: m.cpuNs / 1000 / m.answered, medianBurstUs: median(m.bursts.filter(Number.isFinite)), answered: m.answered, failed: m.failed })),
    ...(ratios.length > 0 ? { pairedRatio: { median: quartile(ratios, 0.5), q1: quartile(ratios, 0.25), q3: quartile(ratios, 0.75) } } : {}),
  };
}

function report(comparison: Comparison): string {
  const head = `${comparison.model} ${comparison.setup} c=${comparison.concurrency}`;
  const lines = comparison.builds.map(
    (b) => `  ${b.build.padEnd(10)} ${b.cpuUsPerRequest.toFixed(1).padStart(7)} µs/request (median burst ${b.medianBurstUs.toFixed(1)}), ${b.answered} answered${b.failed > 0 ? `, ${b.failed} FAILED` : ''}`,
  );
  const ratio = comparison.pairedRatio;
  if (ratio !== undefined) lines.push(`  this/${comparison.builds[1]?.build ?? 'against'} per burst pair: median ${ratio.median.toFixed(3)} (quartiles ${ratio.q1.toFixed(3)}–${ratio.q3.toFixed(3)})`);
  return [head, ...lines].join('\n');
}

if (process.platform !== 'linux') {
  process.stderr.write('bench:cpu reads /proc/<pid>/task/<pid>/schedstat and runs on Linux only\n');
  process.exit(2);
}
const other = await otherBuild();
const builds = [await buildAt('this', distRoot), ...(other !== undefined ? [other] : [])];
process.stderr.write(`${describeMachine(machineInfo())}\n`);
const comparisons: Comparison[] = [];
for (const model of modelNames) {
  for (const setup of setups) {
    for (const connections of concurrencies) {
      process.stderr.write(`${model} ${setup} c=${connections}: ${bursts} bursts of ${burstSeconds} s per build\n`);
      const comparison = await compare(builds, model, setup, connections);
      comparisons.push(comparison);
      process.stdout.write(report(comparison) + '\n');
    }
  }
}
if (values.json !== undefined) await writeFile(values.json, JSON.stringify({ builds: builds.map((b) => ({ name: b.name, distRoot: b.distRoot })), comparisons }, null, 2));
