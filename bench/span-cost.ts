/**
 * `node dist/bench/span-cost.js`: what tracing costs the JavaScript thread, without a server, load
 * generator or model sharing the machine's cores, so that a busy machine moves it much less than
 * `bench:tracing`. Each simulated request does `--work-us` of busy work (about the MLP's JavaScript-thread
 * time per request in `bench:tracing`) and, when traced, makes the spans of a prediction with Sluice's own
 * tracing code: the server span with the attributes an HTTP request's has, `preprocess`, `queue.wait`,
 * `postprocess`, and one `batch.execute` per 16 requests, exported over OTLP/HTTP protobuf to the
 * collector stand-in (`otlp-collector.ts`, a process of its own).
 *
 * Variants, in alternating order per round: tracing off, `parentbased_traceidratio` 0.1 and `always_on`
 * (the default batch sizes), and `always_on` with each of `--batch-sizes`. Prints per variant the median
 * JavaScript-thread CPU per request (Linux only) and its ratio to tracing off (the throughput ratio a
 * server whose JavaScript thread is its bottleneck would see), and the bytes exported per request (a
 * variant that drops spans sends fewer).
 *
 *   node dist/bench/span-cost.js [--requests 100000] [--rounds 5] [--work-us 40] [--batch-sizes 256,2048]
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTextMapGetter } from '@opentelemetry/api';
import type { QueuedTrace } from '../src/batching/batch-tracing.js';
import { createBatchTracing } from '../src/telemetry/tracing/batch-tracer.js';
import { startServerSpan } from '../src/telemetry/tracing/server-span.js';
import { startChildSpan } from '../src/telemetry/tracing/span-helpers.js';
import { DEFAULT_BATCH_SPANS, type SamplerName, type TelemetrySettings } from '../src/telemetry/tracing/telemetry-settings.js';
import { TELEMETRY_OFF, Telemetry } from '../src/telemetry/tracing/telemetry.js';
import { median, roundOrder } from './bench-rounds.js';
import { PROC_TICKS_PER_SECOND, mainThreadTicks } from './cpu-usage.js';
import { spawnTracked, stopChild, waitForStdoutLine } from './child-processes.js';
import { parseBenchArgs } from './bench-args.js';

const BATCH = 16;
const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const values = parseBenchArgs('node dist/bench/span-cost.js', {
  requests: { type: 'string', default: '100000' },
  rounds: { type: 'string', default: '5' },
  'work-us': { type: 'string', default: '40' },
  'batch-sizes': { type: 'string', default: '' },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);
const workMs = Number(values['work-us']) / 1000;

const child = spawnTracked(process.execPath, [join(distRoot, 'bench', 'otlp-collector.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await waitForStdoutLine(child, (line) => /^ready (\d+)$/.exec(line)?.[1]);

interface Variant {
  readonly name: string;
  readonly settings: TelemetrySettings;
}

const traced = (sampler: SamplerName, samplerArg: number, batch = DEFAULT_BATCH_SPANS): TelemetrySettings => ({
  ...TELEMETRY_OFF,
  tracesExporter: 'otlp',
  tracesEndpoint: `http://127.0.0.1:${port}/v1/traces`,
  sampler,
  samplerArg,
  batchSpans: batch,
});
const OFF: Variant = { name: 'tracing off', settings: TELEMETRY_OFF };
const variants: readonly Variant[] = [
  OFF,
  { name: 'parentbased_traceidratio 0.1', settings: traced('parentbased_traceidratio', 0.1) },
  { name: 'always_on', settings: traced('always_on', 1) },
  ...values['batch-sizes']
    .split(',')
    .filter((size) => size.trim() !== '')
    .map((size) => ({
      name: `always_on, batches of ${size}`,
      settings: traced('always_on', 1, { ...DEFAULT_BATCH_SPANS, maxExportBatchSize: Number(size), maxQueueSize: 4 * Number(size) }),
    })),
];

/** A request's headers and server-span attributes, as an HTTP prediction has them. */
const HEADERS = { host: '127.0.0.1:8080', 'content-type': 'application/json', 'content-length': '500' };
function serverAttributes(id: number): Record<string, string> {
  return {
    'http.request.method': 'POST',
    'http.route': '/predictions/:model',
    'url.path': '/predictions/mlp',
    'url.scheme': 'http',
    'client.address': '127.0.0.1',
    'user_agent.original': 'autocannon',
    'sluice.request_id': `0f8fad5b-d9cb-469f-a165-${String(id).padStart(12, '0')}`,
  };
}

/** Busy work standing for the rest of a request (reading the clock until `workMs` have passed). */
function work(): void {
  const until = performance.now() + workMs;
  while (performance.now() < until);
}

/** `count` simulated requests, `BATCH` at a time, through `telemetry`. */
async function simulate(telemetry: Telemetry, count: number): Promise<void> {
  const batches = createBatchTracing({ model: 'mlp', version: '1', executionProvider: 'cpu' });
  for (let i = 0; i < count; i += BATCH) {
    const servers = [];
    const queued: QueuedTrace[] = [];
    for (let j = 0; j < BATCH; j++) {
      work();
      const server = startServerSpan(telemetry, 'POST /predictions/:model', HEADERS, defaultTextMapGetter, () => serverAttributes(i + j));
      servers.push(server);
      if (server === undefined) continue;
      server.span.setAttribute('sluice.model', 'mlp').setAttribute('sluice.model.version', '1');
      startChildSpan(server.context, 'preprocess')?.end();
      const waiting = batches.enqueued(server.context);
      if (waiting !== undefined) queued.push(waiting);
    }
    await batches.runBatch(queued, { size: BATCH, rows: BATCH, instanceId: '1', device: 'cpu' }, () => {
      for (const waiting of queued) waiting.dequeued();
      return Promise.resolve();
    });
    for (const server of servers) {
      if (server === undefined) continue;
      startChildSpan(server.context, 'postprocess')?.end();
      server.span.setAttribute('http.response.status_code', 200);
      server.span.end();
    }
    // Lets the exporter's sockets and timers run, as a server's event loop would between reads.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The bytes the collector stand-in has received so far. */
async function exportedBytes(): Promise<number> {
  return ((await (await fetch(`http://127.0.0.1:${port}/counts`)).json()) as { bytes: number }).bytes;
}

/**
 * JavaScript-thread CPU per simulated request, in µs, warm-up and the final export excluded; and the bytes
 * the collector received per request, warm-up and final export included (a variant that drops spans
 * sends fewer).
 */
async function measure(variant: Variant): Promise<{ cpuUs: number; bytes: number }> {
  const bytesBefore = await exportedBytes();
  const telemetry = new Telemetry(variant.settings);
  let cpuUs: number;
  try {
    await simulate(telemetry, requests / 4);
    const before = await mainThreadTicks(process.pid);
    await simulate(telemetry, requests);
    cpuUs = (((await mainThreadTicks(process.pid)) - before) * 1e6) / PROC_TICKS_PER_SECOND / requests;
  } finally {
    await telemetry.shutdown();
  }
  return { cpuUs, bytes: ((await exportedBytes()) - bytesBefore) / (requests * 1.25) };
}

const cpu = new Map<string, number[]>(variants.map((v) => [v.name, []]));
const bytes = new Map<string, number[]>(variants.map((v) => [v.name, []]));
try {
  for (let round = 0; round < rounds; round++) {
    for (const variant of roundOrder(variants, round)) {
      process.stderr.write(`round ${round + 1}: ${variant.name}\n`);
      const m = await measure(variant);
      cpu.get(variant.name)?.push(m.cpuUs);
      bytes.get(variant.name)?.push(m.bytes);
    }
  }
} finally {
  child.kill('SIGTERM');
  await stopChild(child);
}

const off = median(cpu.get(OFF.name) ?? []);
const lines = [
  `${requests} simulated requests per variant and round, ${rounds} rounds, ${values['work-us']} µs of other work per request; JavaScript-thread CPU per request, medians:`,
  ...variants.map((v) => {
    const us = median(cpu.get(v.name) ?? []);
    const exported = median(bytes.get(v.name) ?? []);
    return `  ${v.name.padEnd(32)} ${us.toFixed(1).padStart(6)} µs  tracing ${(us - off).toFixed(1).padStart(5)} µs  ratio to off ${(off / us).toFixed(3)}  exported ${exported.toFixed(0)} B/request`;
  }),
];
process.stdout.write(lines.join('\n') + '\n');
