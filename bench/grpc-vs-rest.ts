/**
 * `npm run bench:grpc`: `ModelInfer` with raw contents on the demo MLP against the REST Open Inference
 * Protocol route (`POST /v2/models/mlp/infer`, as JSON and with the binary tensor extension) on one Sluice
 * server, in one run, at the same concurrency. The baseline is the faster REST form. Target: gRPC reaches
 * at least 1.0× its throughput. Absolute figures depend on the machine; the ratio is what to compare.
 *
 *   npm run bench:grpc -- [--duration 5] [--warmup 2] [--concurrency 16] [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sampleInstance } from './bench-models.js';
import { startSluice } from './bench-processes.js';
import { copyModelsToTempStore } from './bench-store.js';
import { cleanupOnInterrupt } from './child-processes.js';
import { assertGrpcServes, oipGrpcClient, runGrpcLoad, serializeModelInferRequest } from './grpc-load.js';
import { runLoad, type LoadMeasurement } from './load.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { formatCount, formatTable } from './report.js';
import { float32Bytes, oipBinaryRequest, type BenchRequest } from './request-bodies.js';
import { assertServes } from './server-setups.js';

const TARGET_RATIO = 1.0;

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '16' },
    json: { type: 'string' },
  },
});
const durationSeconds = Number(values.duration);
const warmupSeconds = Number(values.warmup);
const concurrency = Number(values.concurrency);
if (!(durationSeconds > 0 && warmupSeconds >= 0 && Number.isInteger(concurrency) && concurrency >= 1)) {
  throw new Error('usage: npm run bench:grpc -- [--duration S > 0] [--warmup S >= 0] [--concurrency N >= 1] [--json FILE]');
}

function progress(text: string): void {
  process.stderr.write(text + '\n');
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
const results: { name: string; run: LoadMeasurement }[] = [];
try {
  if (server.grpcInference === undefined) throw new Error('the server did not report its gRPC inference address');
  const client = oipGrpcClient(server.grpcInference);
  await assertServes(server.baseUrl, restJson);
  await assertServes(server.baseUrl, restBinary);
  await assertGrpcServes(client, 'ModelInfer', grpcRequest);
  client.close();
  const rest = (name: string, request: BenchRequest) => async (): Promise<void> => {
    if (warmupSeconds > 0) await runLoad({ baseUrl: server.baseUrl, request, connections: concurrency, durationSeconds: warmupSeconds });
    results.push({ name, run: await runLoad({ baseUrl: server.baseUrl, request, connections: concurrency, durationSeconds }) });
  };
  const grpc = async (): Promise<void> => {
    const spec = {
      address: server.grpcInference ?? '',
      path: '/inference.GRPCInferenceService/ModelInfer',
      message: serializeModelInferRequest(grpcRequest),
      concurrency,
      durationSeconds,
    };
    if (warmupSeconds > 0) await runGrpcLoad({ ...spec, durationSeconds: warmupSeconds });
    results.push({ name: 'gRPC ModelInfer, raw contents', run: await runGrpcLoad(spec) });
  };
  for (const [name, step] of [
    ['REST OIP JSON', rest('REST OIP JSON', restJson)],
    ['REST OIP binary', rest('REST OIP binary tensors', restBinary)],
    ['gRPC', grpc],
  ] as const) {
    progress(`mlp c=${concurrency}: ${name}`);
    await step();
  }
} finally {
  await server.stop();
  await removeStore();
}

const us = (value: number): string => (Number.isFinite(value) ? `${Math.round(value)} µs` : '–');
const [json, binary, grpcRun] = results.map((r) => r.run);
if (json === undefined || binary === undefined || grpcRun === undefined) throw new Error('a run is missing');
const baseline = json.requestsPerSecond >= binary.requestsPerSecond ? results[0] : results[1];
const ratio = grpcRun.requestsPerSecond / (baseline?.run.requestsPerSecond ?? Number.NaN);
process.stdout.write(`${describeMachine(machineInfo())}\nMLP 64→256→256→10, concurrency ${concurrency}, ${durationSeconds} s per run\n\n`);
process.stdout.write(
  formatTable(
    ['setup', 'req/s', 'p50', 'p99', 'failed'],
    results.map(({ name, run }) => [name, formatCount(run.requestsPerSecond), us(run.p50Us), us(run.p99Us), String(run.non2xx + run.errors)]),
  ) + '\n\n',
);
process.stdout.write(
  `gRPC / ${baseline?.name ?? '?'} (the faster REST form): ${ratio.toFixed(2)}× — target ≥ ${TARGET_RATIO.toFixed(1)}×: ${ratio >= TARGET_RATIO ? 'met' : 'NOT met'}\n`,
);
if (values.json !== undefined) await writeFile(values.json, JSON.stringify({ concurrency, durationSeconds, results, baseline: baseline?.name, ratio }, null, 2));
