/**
 * `npm run bench:tracing`: what tracing costs. The demo MLP is served by Sluice three times per round,
 * in alternating order, and loaded at the same concurrency: with tracing off (the default); with a tenth
 * of the requests traced (`parentbased_traceidratio`, ratio 0.1, the load sending no `traceparent`); and
 * with every request traced (`always_on`). Both traced variants export over OTLP/HTTP (protobuf, the
 * default) to a collector stand-in on loopback, in a process of its own, that only counts bytes. Every
 * server writes the same access-log lines.
 *
 * Prints each run's throughput, each round's ratios against that round's untraced run, and per variant
 * the median throughput and the median ratio, with PASS or FAIL against its target: at least 0.95 for the
 * sampled variant, at least 0.75 for `always_on`. Five rounds by default: on a shared machine a single
 * round of any variant can run slower than usual. Absolute figures depend on the machine; the ratios,
 * measured in one run, are what to compare. On Linux it also prints the CPU time of the server's
 * JavaScript thread per request, whose ratio other work on a shared machine moves less, and the bytes
 * the collector received per request (a server that dropped spans sends fewer).
 *
 * `--split` adds a variant per round: tracing off, but with an AsyncLocalStorage enabled (what an async
 * context manager would cost by itself; Sluice passes trace context explicitly and installs none).
 * `--batch-sizes 256,2048` adds an `always_on` variant per size, exporting batches of that many spans
 * (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, with a queue four times as large), to compare them with the default.
 * `--unsampled` adds `parentbased_traceidratio` at 0: every request gets its span and contexts from the
 * SDK, none is recorded or exported, the floor under any sampled ratio.
 *
 *   npm run bench:tracing -- [--duration 8] [--rounds 5] [--concurrency 16] [--split] [--unsampled] [--batch-sizes LIST] [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchModels } from './bench-models.js';
import { median, roundOrder } from './bench-rounds.js';
import { PROC_TICKS_PER_SECOND, mainThreadTicks } from './cpu-usage.js';
import { startSluice } from './bench-processes.js';
import { spawnTracked, stopChild, waitForStdoutLine } from './child-processes.js';
import { runLoad, type LoadMeasurement } from './load.js';
import { parseBenchArgs } from './bench-args.js';

const WARM_UP_SECONDS = 2;
/** The share of traces the sampled variant keeps. */
const SAMPLED_RATIO = 0.1;

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');
const values = parseBenchArgs('npm run bench:tracing --', {
  duration: { type: 'string', default: '8' },
  rounds: { type: 'string', default: '5' },
  concurrency: { type: 'string', default: '16' },
  split: { type: 'boolean', default: false },
  unsampled: { type: 'boolean', default: false },
  'batch-sizes': { type: 'string', default: '' },
  json: { type: 'string' },
});
const durationSeconds = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.concurrency);
const batchSizes = values['batch-sizes']
  .split(',')
  .filter((size) => size.trim() !== '')
  .map(Number);

function progress(text: string): void {
  process.stderr.write(text + '\n');
}

/** What the collector stand-in received: export requests and their bytes. */
interface Exported {
  readonly requests: number;
  readonly bytes: number;
}

/** The stand-in collector (`otlp-collector.ts`), in a process of its own: its URL, its counts so far, and how to stop it. */
async function startCollector(): Promise<{ url: string; counts: () => Promise<Exported>; stop: () => Promise<Exported> }> {
  const child = spawnTracked(process.execPath, [join(distRoot, 'bench', 'otlp-collector.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await waitForStdoutLine(child, (line) => /^ready (\d+)$/.exec(line)?.[1]);
  return {
    url: `http://127.0.0.1:${port}`,
    counts: async () => (await (await fetch(`http://127.0.0.1:${port}/counts`)).json()) as Exported,
    stop: async () => {
      const counts = waitForStdoutLine(child, (line) => (line.startsWith('{') ? (JSON.parse(line) as Exported) : undefined));
      child.kill('SIGTERM');
      const result = await counts;
      await stopChild(child);
      return result;
    },
  };
}

const mlp = benchModels(repoRoot).mlp;
const collector = await startCollector();
const contextOnlyOptions = [process.env['NODE_OPTIONS'], `--import ${pathToFileURL(join(distRoot, 'bench', 'enable-async-context.js')).href}`].filter(Boolean).join(' ');
const traced = { ...process.env, OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url };

/** What each variant is, how its server is started, and the ratio to untraced it must reach (if any). */
interface Variant {
  readonly name: string;
  readonly label: string;
  readonly env: NodeJS.ProcessEnv;
  readonly target?: number;
}

const OFF: Variant = { name: 'off', label: 'tracing off', env: { ...process.env, OTEL_TRACES_EXPORTER: 'none' } };
const variants: readonly Variant[] = [
  OFF,
  {
    name: 'ratio',
    label: `parentbased_traceidratio ${SAMPLED_RATIO}`,
    env: { ...traced, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: String(SAMPLED_RATIO) },
    target: 0.95,
  },
  { name: 'on', label: 'always_on', env: { ...traced, OTEL_TRACES_SAMPLER: 'always_on' }, target: 0.75 },
  ...batchSizes.map((size) => ({
    name: `on-${size}`,
    label: `always_on, batches of ${size}`,
    env: { ...traced, OTEL_TRACES_SAMPLER: 'always_on', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: String(size), OTEL_BSP_MAX_QUEUE_SIZE: String(4 * size) },
  })),
  ...(values.unsampled
    ? [
        {
          name: 'unsampled',
          label: 'parentbased_traceidratio 0 (none sampled)',
          env: { ...traced, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
        },
      ]
    : []),
  ...(values.split ? [{ name: 'context', label: 'AsyncLocalStorage only (no spans, no tracing)', env: { ...process.env, OTEL_TRACES_EXPORTER: 'none', NODE_OPTIONS: contextOnlyOptions } }] : []),
];

/**
 * A run's load figures, the CPU time of the server's main (JavaScript) thread per answered request, where
 * spans are made and exported (Linux only, else NaN), and the bytes the collector received per answered
 * request (warm-up included, and what the server sends when it stops): a variant that dropped spans
 * would send fewer.
 */
async function measure(variant: Variant): Promise<LoadMeasurement & { cpuUsPerRequest: number; exportedBytesPerRequest: number }> {
  const exportedBefore = await collector.counts();
  const server = await startSluice(distRoot, join(repoRoot, 'model-store'), ['mlp'], { env: variant.env });
  let m: LoadMeasurement;
  let ticks: number;
  let warmUp: LoadMeasurement;
  try {
    warmUp = await runLoad({ baseUrl: server.baseUrl, request: mlp.sluiceRequest, connections, durationSeconds: WARM_UP_SECONDS });
    const linux = process.platform === 'linux';
    const before = linux ? await mainThreadTicks(server.pid) : NaN;
    m = await runLoad({ baseUrl: server.baseUrl, request: mlp.sluiceRequest, connections, durationSeconds });
    ticks = linux ? (await mainThreadTicks(server.pid)) - before : NaN;
  } finally {
    await server.stop();
  }
  const exportedBytes = (await collector.counts()).bytes - exportedBefore.bytes;
  return { ...m, cpuUsPerRequest: (ticks * 1e6) / PROC_TICKS_PER_SECOND / m.ok, exportedBytesPerRequest: exportedBytes / (warmUp.ok + m.ok) };
}

interface Run {
  readonly round: number;
  readonly variant: string;
  readonly requestsPerSecond: number;
  readonly cpuUsPerRequest: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly exportedBytesPerRequest: number;
}

const runs: Run[] = [];
let exported: Exported;
try {
  for (let round = 1; round <= rounds; round++) {
    // Alternate the order, so that no variant always runs on a warmer (or busier) machine.
    for (const variant of roundOrder(variants, round - 1)) {
      progress(`round ${round}: ${variant.label}, c=${connections}, ${durationSeconds} s`);
      const m = await measure(variant);
      runs.push({
        round,
        variant: variant.name,
        requestsPerSecond: m.requestsPerSecond,
        cpuUsPerRequest: m.cpuUsPerRequest,
        p50Ms: m.p50Us / 1000,
        p99Ms: m.p99Us / 1000,
        non2xx: m.non2xx,
        exportedBytesPerRequest: m.exportedBytesPerRequest,
      });
    }
  }
} finally {
  exported = await collector.stop();
}

const runOf = (round: number, variant: Variant): Run | undefined => runs.find((r) => r.round === round && r.variant === variant.name);
const throughput = (round: number, variant: Variant): number => runOf(round, variant)?.requestsPerSecond ?? NaN;
const cpuUs = (round: number, variant: Variant): number => runOf(round, variant)?.cpuUsPerRequest ?? NaN;
const roundNumbers = Array.from({ length: rounds }, (_, i) => i + 1);
/** A round's throughput ratio against the untraced run of the same round: one busy moment moves one round only. */
const roundRatio = (round: number, variant: Variant): number => throughput(round, variant) / throughput(round, OFF);
const medianRatio = (variant: Variant): number => median(roundNumbers.map((round) => roundRatio(round, variant)));
const medianThroughput = (variant: Variant): number => median(roundNumbers.map((round) => throughput(round, variant)));
/** Main-thread CPU per request: less sensitive than throughput to other work on the machine, which takes turns but not CPU time. */
const medianCpuUs = (variant: Variant): number => median(roundNumbers.map((round) => cpuUs(round, variant)));
/** Each round's main-thread CPU per request untraced over that of `variant`: the throughput ratio a CPU-bound server would see. */
const medianCpuRatio = (variant: Variant): number => median(roundNumbers.map((round) => cpuUs(round, OFF) / cpuUs(round, variant)));
const medianExported = (variant: Variant): number => median(roundNumbers.map((round) => runOf(round, variant)?.exportedBytesPerRequest ?? NaN));
const compared = variants.filter((v) => v !== OFF);
const verdict = (variant: Variant): string => {
  if (variant.target === undefined) return '';
  return `  target ≥ ${variant.target}: ${medianRatio(variant) >= variant.target ? 'PASS' : 'FAIL'}`;
};

const lines = [
  `MLP, c=${connections}, ${rounds} round(s) of ${durationSeconds} s per variant; traced variants export OTLP/HTTP protobuf to loopback`,
  ...runs.map(
    (r) =>
      `  round ${r.round} ${r.variant.padEnd(7)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  main-thread CPU ${r.cpuUsPerRequest.toFixed(0).padStart(4)} µs/req  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  non-2xx ${r.non2xx}  exported ${r.exportedBytesPerRequest.toFixed(0)} B/req`,
  ),
  ...roundNumbers.map((round) => `  round ${round} ratios to off: ${compared.map((v) => `${v.name} ${roundRatio(round, v).toFixed(3)}`).join(', ')}`),
  `the collector received ${exported.requests} exports, ${(exported.bytes / 1e6).toFixed(1)} MB`,
  '',
  `${'variant'.padEnd(46)} ${'median req/s'.padStart(12)} ${'µs/req'.padStart(7)} ${'B/req'.padStart(6)} ${'ratio'.padStart(6)} ${'CPU ratio'.padStart(9)}`,
  ...variants.map((v) =>
    [
      v.label.padEnd(46),
      medianThroughput(v).toFixed(0).padStart(12),
      medianCpuUs(v).toFixed(0).padStart(7),
      medianExported(v).toFixed(0).padStart(6),
      (v === OFF ? '1' : medianRatio(v).toFixed(3)).padStart(6),
      (v === OFF ? '1' : medianCpuRatio(v).toFixed(3)).padStart(9),
      verdict(v),
    ].join(' '),
  ),
];
process.stdout.write(lines.join('\n') + '\n');
if (values.json !== undefined) {
  const summary = Object.fromEntries(
    compared.map((v) => [
      v.name,
      {
        ratio: medianRatio(v),
        cpuRatio: medianCpuRatio(v),
        requestsPerSecond: medianThroughput(v),
        exportedBytesPerRequest: medianExported(v),
        target: v.target ?? null,
        pass: v.target === undefined ? null : medianRatio(v) >= v.target,
      },
    ]),
  );
  await writeFile(values.json, JSON.stringify({ connections, durationSeconds, rounds, runs, summary, untracedRequestsPerSecond: medianThroughput(OFF), exported }, null, 2));
}
