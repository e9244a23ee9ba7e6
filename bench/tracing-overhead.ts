/**
 * `npm run bench:tracing`: what tracing costs. The demo MLP is served by Sluice twice per round,
 * alternately, and loaded at the same concurrency: with tracing off (the default), and with every request
 * traced (`always_on` sampler) and exported over OTLP/HTTP (protobuf, the default) to a collector stand-in
 * on loopback, in a process of its own, that only counts bytes. Both servers write the same access-log lines.
 * Prints each round's throughputs and ratio and the median ratio; the target is at least 0.85. Five
 * rounds by default: on a shared machine a single round of either variant can run slower than usual. Absolute
 * figures depend on the machine; the ratio, measured in one run, is what to compare. On Linux it also
 * prints the CPU time of the server's JavaScript thread per request, whose ratio other work on a shared
 * machine moves less.
 *
 * `--split` adds a third variant per round: tracing off, but with an AsyncLocalStorage enabled (what an
 * async context manager would cost by itself; Sluice passes trace context explicitly and installs none).
 *
 *   npm run bench:tracing -- [--duration 8] [--rounds 5] [--concurrency 16] [--split] [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { benchModels } from './bench-models.js';
import { median } from './bench-rounds.js';
import { PROC_TICKS_PER_SECOND, mainThreadTicks } from './cpu-usage.js';
import { startSluice } from './bench-processes.js';
import { spawnTracked, stopChild, waitForStdoutLine } from './child-processes.js';
import { runLoad, type LoadMeasurement } from './load.js';

const TARGET_RATIO = 0.85;
const WARM_UP_SECONDS = 2;

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16' },
    split: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const durationSeconds = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.concurrency);

function progress(text: string): void {
  process.stderr.write(text + '\n');
}

/** The stand-in collector (`otlp-collector.ts`), in a process of its own: its URL, and how to stop it and read its counts. */
async function startCollector(): Promise<{ url: string; stop: () => Promise<{ requests: number; bytes: number }> }> {
  const child = spawnTracked(process.execPath, [join(distRoot, 'bench', 'otlp-collector.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await waitForStdoutLine(child, (line) => /^ready (\d+)$/.exec(line)?.[1]);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const counts = waitForStdoutLine(child, (line) => (line.startsWith('{') ? (JSON.parse(line) as { requests: number; bytes: number }) : undefined));
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
const environments = {
  off: { ...process.env, OTEL_TRACES_EXPORTER: 'none' },
  context: { ...process.env, OTEL_TRACES_EXPORTER: 'none', NODE_OPTIONS: contextOnlyOptions },
  on: { ...process.env, OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'always_on', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
} as const;
type Variant = keyof typeof environments;
const variants: readonly Variant[] = values.split ? ['off', 'context', 'on'] : ['off', 'on'];

/**
 * A run's load figures and the CPU time of the server's main (JavaScript) thread per answered request,
 * where spans are made and exported (Linux only, else NaN).
 */
async function measure(variant: Variant): Promise<LoadMeasurement & { cpuUsPerRequest: number }> {
  const server = await startSluice(distRoot, join(repoRoot, 'model-store'), ['mlp'], { env: environments[variant] });
  try {
    await runLoad({ baseUrl: server.baseUrl, request: mlp.sluiceRequest, connections, durationSeconds: WARM_UP_SECONDS });
    const linux = process.platform === 'linux';
    const before = linux ? await mainThreadTicks(server.pid) : NaN;
    const m = await runLoad({ baseUrl: server.baseUrl, request: mlp.sluiceRequest, connections, durationSeconds });
    const ticks = linux ? (await mainThreadTicks(server.pid)) - before : NaN;
    return { ...m, cpuUsPerRequest: (ticks * 1e6) / PROC_TICKS_PER_SECOND / m.ok };
  } finally {
    await server.stop();
  }
}

const runs: { round: number; variant: Variant; requestsPerSecond: number; cpuUsPerRequest: number; p50Ms: number; p99Ms: number; non2xx: number }[] = [];
let exported: { requests: number; bytes: number };
try {
  for (let round = 1; round <= rounds; round++) {
    // Alternate the order, so that neither variant always runs on a warmer (or busier) machine.
    for (const variant of round % 2 === 1 ? variants : [...variants].reverse()) {
      progress(`round ${round}: tracing ${variant}, c=${connections}, ${durationSeconds} s`);
      const m = await measure(variant);
      runs.push({ round, variant, requestsPerSecond: m.requestsPerSecond, cpuUsPerRequest: m.cpuUsPerRequest, p50Ms: m.p50Us / 1000, p99Ms: m.p99Us / 1000, non2xx: m.non2xx });
    }
  }
} finally {
  exported = await collector.stop();
}

const throughput = (round: number, variant: Variant): number => runs.find((r) => r.round === round && r.variant === variant)?.requestsPerSecond ?? NaN;
const roundNumbers = Array.from({ length: rounds }, (_, i) => i + 1);
/** Each round's ratio against the tracing-off run of the same round, then their median: one busy moment moves one round only. */
const medianRatio = (variant: Variant): number => median(roundNumbers.map((round) => throughput(round, variant) / throughput(round, 'off')));
const medianThroughput = (variant: Variant): number => median(roundNumbers.map((round) => throughput(round, variant)));
/** Main-thread CPU per request: less sensitive than throughput to other work on the machine, which takes turns but not CPU time. */
const cpuUs = (round: number, variant: Variant): number => runs.find((r) => r.round === round && r.variant === variant)?.cpuUsPerRequest ?? NaN;
const medianCpuUs = (variant: Variant): number => median(roundNumbers.map((round) => cpuUs(round, variant)));
/** Each round's main-thread CPU per request of tracing off over that of `variant`: the throughput ratio a CPU-bound server would see. */
const medianCpuRatio = (variant: Variant): number => median(roundNumbers.map((round) => cpuUs(round, 'off') / cpuUs(round, variant)));
const ratio = medianRatio('on');
const lines = [
  `MLP, c=${connections}, ${rounds} round(s) of ${durationSeconds} s per variant`,
  ...runs.map(
    (r) =>
      `  round ${r.round} ${r.variant.padEnd(7)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  main-thread CPU ${r.cpuUsPerRequest.toFixed(0).padStart(4)} µs/req  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  non-2xx ${r.non2xx}`,
  ),
  ...roundNumbers.map((round) => `  round ${round} ratio on/off ${(throughput(round, 'on') / throughput(round, 'off')).toFixed(3)}`),
  `tracing off: median ${medianThroughput('off').toFixed(0)} req/s, main-thread CPU ${medianCpuUs('off').toFixed(0)} µs/req`,
  ...(values.split
    ? [
        `AsyncLocalStorage only (no spans, no tracing): median ${medianThroughput('context').toFixed(0)} req/s, median ratio ${medianRatio('context').toFixed(3)}; main-thread CPU ${medianCpuUs('context').toFixed(0)} µs/req, median CPU ratio off/context ${medianCpuRatio('context').toFixed(3)}`,
      ]
    : []),
  `tracing on (always_on, OTLP/HTTP protobuf to loopback): median ${medianThroughput('on').toFixed(0)} req/s; the collector received ${exported.requests} exports, ${(exported.bytes / 1e6).toFixed(1)} MB`,
  `main-thread CPU per request: tracing on ${medianCpuUs('on').toFixed(0)} µs, median CPU ratio off/on ${medianCpuRatio('on').toFixed(3)}`,
  `median ratio on/off: ${ratio.toFixed(3)} (target ≥ ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'})`,
];
process.stdout.write(lines.join('\n') + '\n');
if (values.json !== undefined) await writeFile(values.json, JSON.stringify({ connections, durationSeconds, rounds, runs, ratio, cpuRatio: medianCpuRatio('on'), exported }, null, 2));
