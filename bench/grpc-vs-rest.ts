/**
 * `npm run bench:grpc`: `ModelInfer` with raw contents on the demo MLP against the REST Open Inference
 * Protocol route (`POST /v2/models/mlp/infer`, as JSON and with the binary tensor extension) on one Sluice
 * server, in one run, at the same concurrency. REST load comes from autocannon (one request per
 * connection in flight), gRPC load from h2load (nghttp2's HTTP/2 load generator; one connection with that
 * many streams in flight, as gRPC clients multiplex): both send a request prepared once and read little
 * of the answer, and both are cheap per request next to the server. The setups run in rounds, forward then
 * backward, so that a drift in the machine's other load weighs on all of them; each round's baseline is
 * its faster REST form, and the ratio reported is the median of the rounds' ratios. Target: gRPC reaches
 * at least 1.0× the baseline. Absolute figures depend on the machine; the ratio is what to compare.
 *
 * What h2load cannot check: it counts HTTP statuses, and a gRPC call that fails is still HTTP 200, its
 * `grpc-status` in the trailers, which h2load does not read (nor does it decode the answer). So the
 * benchmark checks the calls otherwise: a grpc-js client calls `ModelInfer` before the load and after it
 * and must succeed, and around every h2load run it reads the server's own counters, where every gRPC call
 * answered with an error counts (`sluice_errors_total{transport="grpc"}`, reported as failed), and where
 * the model's request count must have grown by at least the calls h2load saw answered. h2load needs to
 * be installed (`apt-get install nghttp2-client`); without it the benchmark says so and exits with 1.
 *
 *   npm run bench:grpc -- [--duration 5] [--warmup 2] [--concurrency 16] [--rounds 4] [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleInstance } from './bench-models.js';
import { startSluice } from './bench-processes.js';
import { copyModelsToTempStore } from './bench-store.js';
import { cleanupOnInterrupt } from './child-processes.js';
import { median, medianRun, roundOrder } from './bench-rounds.js';
import { readGrpcCallCounters } from './grpc-call-counters.js';
import { H2LOAD_INSTALL_HINT, h2loadVersion, runGrpcH2load } from './grpc-h2load.js';
import { assertGrpcServes, oipGrpcClient, serializeModelInferRequest } from './grpc-load.js';
import { runLoad, type LoadMeasurement } from './load.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { formatCount, formatTable } from './report.js';
import { float32Bytes, oipBinaryRequest, type BenchRequest } from './request-bodies.js';
import { assertServes } from './server-setups.js';
import { parseBenchArgs } from './bench-args.js';

const TARGET_RATIO = 1.0;

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');

const values = parseBenchArgs('npm run bench:grpc --', {
  duration: { type: 'string', default: '5' },
  warmup: { type: 'string', default: '2' },
  concurrency: { type: 'string', default: '16' },
  rounds: { type: 'string', default: '4' },
  json: { type: 'string' },
});
const durationSeconds = Number(values.duration);
const warmupSeconds = Number(values.warmup);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);
if (!(durationSeconds > 0 && warmupSeconds >= 0 && Number.isInteger(concurrency) && concurrency >= 1 && Number.isInteger(rounds) && rounds >= 1)) {
  throw new Error('usage: npm run bench:grpc -- [--duration S > 0] [--warmup S >= 0] [--concurrency N >= 1] [--rounds N >= 1] [--json FILE]');
}

function progress(text: string): void {
  process.stderr.write(text + '\n');
}

const h2load = h2loadVersion();
if (h2load === undefined) {
  process.stderr.write(`npm run bench:grpc: ${H2LOAD_INSTALL_HINT}\n`);
  process.exit(1);
}

const instance = sampleInstance(64);
const restJson: BenchRequest = {
  path: '/v2/models/mlp/infer',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: Array.from(instance) }] }),
};
const restBinary = oipBinaryRequest('mlp', 'input', [1, 64], instance);
const grpcRequest = { model_name: 'mlp', inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 64] }], raw_input_contents: [float32Bytes(instance)] };

const store = await copyModelsToTempStore([{ source: join(repoRoot, 'model-store', 'mlp'), name: 'mlp' }]);
const removeStore = cleanupOnInterrupt(() => store.cleanup());
const server = await startSluice(distRoot, store.dir, ['mlp']);
const GRPC = 'gRPC ModelInfer, raw contents';
const SETUPS = ['REST OIP JSON', 'REST OIP binary tensors', GRPC] as const;
type SetupName = (typeof SETUPS)[number];
/** Each round's measurement of each setup. */
const runs: Record<SetupName, LoadMeasurement>[] = [];
/** gRPC calls the server answered with an error during the h2load runs (h2load counts them as successes). */
let grpcFailures = 0;
try {
  const { grpcInference, metricsUrl } = server;
  if (grpcInference === undefined || metricsUrl === undefined) throw new Error('the server did not report its gRPC inference and metrics addresses');
  const client = oipGrpcClient(grpcInference);
  await assertServes(server.baseUrl, restJson);
  await assertServes(server.baseUrl, restBinary);
  await assertGrpcServes(client, 'ModelInfer', grpcRequest);
  const grpcSpec = {
    address: grpcInference,
    path: '/inference.GRPCInferenceService/ModelInfer',
    message: serializeModelInferRequest(grpcRequest),
    concurrency,
  };
  /** An h2load run, and what the server counted meanwhile: every call h2load saw answered must have reached the model, none failed. */
  const measureGrpc = async (durationSeconds: number): Promise<LoadMeasurement> => {
    const before = await readGrpcCallCounters(metricsUrl, 'mlp');
    const measured = await runGrpcH2load({ ...grpcSpec, durationSeconds });
    const after = await readGrpcCallCounters(metricsUrl, 'mlp');
    const failed = after.grpcErrors - before.grpcErrors;
    if (after.modelRequests - before.modelRequests < measured.ok) {
      throw new Error(`h2load counted ${String(measured.ok)} answered calls, but the model received ${String(after.modelRequests - before.modelRequests)} requests: the calls did not reach it`);
    }
    grpcFailures += failed;
    // Failed calls are no throughput: they are taken out of h2load's count.
    const ok = Math.max(0, measured.ok - failed);
    return { ...measured, ok, requestsPerSecond: measured.ok > 0 ? (measured.requestsPerSecond * ok) / measured.ok : 0, non2xx: measured.non2xx + failed };
  };
  const measure = (name: SetupName, durationSeconds: number): Promise<LoadMeasurement> => {
    if (name === GRPC) return measureGrpc(durationSeconds);
    const request = name === 'REST OIP JSON' ? restJson : restBinary;
    return runLoad({ baseUrl: server.baseUrl, request, connections: concurrency, durationSeconds });
  };
  for (let round = 0; round < rounds; round++) {
    const measured: Partial<Record<SetupName, LoadMeasurement>> = {};
    for (const name of roundOrder(SETUPS, round)) {
      progress(`mlp c=${String(concurrency)}, round ${String(round + 1)}/${String(rounds)}: ${name}`);
      // Warm-up in the first round only: the server and the generators stay warm from round to round.
      if (round === 0 && warmupSeconds > 0) await measure(name, warmupSeconds);
      measured[name] = await measure(name, durationSeconds);
    }
    runs.push(measured as Record<SetupName, LoadMeasurement>);
  }
  await assertGrpcServes(client, 'ModelInfer', grpcRequest);
  client.close();
} finally {
  await server.stop();
  await removeStore();
}

const us = (value: number): string => (Number.isFinite(value) ? `${String(Math.round(value))} µs` : '–');
/** Per round: gRPC (through `generator`) over that round's faster REST form. */
const ratiosOf = (generator: SetupName): number[] =>
  runs.map((round) => round[generator].requestsPerSecond / Math.max(round['REST OIP JSON'].requestsPerSecond, round['REST OIP binary tensors'].requestsPerSecond));
const ratios = ratiosOf(GRPC);
const ratio = median(ratios);
const summary = SETUPS.map((name) => {
  const mine = runs.map((round) => round[name]);
  const typical = medianRun(mine);
  return {
    name,
    requestsPerSecond: median(mine.map((run) => run.requestsPerSecond)),
    p50Us: typical?.p50Us ?? Number.NaN,
    p99Us: typical?.p99Us ?? Number.NaN,
    failed: mine.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    perRound: mine.map((run) => run.requestsPerSecond),
  };
});
process.stdout.write(`${describeMachine(machineInfo())}\nMLP 64→256→256→10, concurrency ${String(concurrency)}, ${String(rounds)} rounds (alternating order) of ${String(durationSeconds)} s per setup\n`);
process.stdout.write(`load: autocannon (REST, ${String(concurrency)} connections), ${h2load} (gRPC, 1 connection, ${String(concurrency)} streams)\n\n`);
process.stdout.write(
  formatTable(
    ['setup', 'median req/s', 'per round', 'p50', 'p99', 'failed'],
    summary.map((s) => [s.name, formatCount(s.requestsPerSecond), s.perRound.map(formatCount).join(', '), us(s.p50Us), us(s.p99Us), String(s.failed)]),
  ) + '\n\n',
);
process.stdout.write(`gRPC / the faster REST form, per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}\n`);
process.stdout.write(`median: ${ratio.toFixed(2)}× — target ≥ ${TARGET_RATIO.toFixed(1)}×: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}\n`);
process.stdout.write(
  grpcFailures === 0
    ? 'gRPC calls checked: grpc-js ModelInfer succeeded before and after the load; the server counted no gRPC error during it\n'
    : `WARNING: the server answered ${String(grpcFailures)} gRPC calls with an error during the h2load runs (h2load counts them as successes); see its log\n`,
);
if (values.json !== undefined) await writeFile(values.json, JSON.stringify({ concurrency, durationSeconds, rounds, generator: h2load, runs, summary, ratios, ratio, grpcFailures }, null, 2));
