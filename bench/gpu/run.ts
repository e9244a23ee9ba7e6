/**
 * The GPU check: ResNet-50 (fp32 and fp16, exported on the machine by `export-resnet50.py`) measured as
 * bare `session.run` at the batch size, through the GPU executor in process (1 and 2 instances on one
 * GPU), and served by Sluice with the GPU executor to binary OIP requests of one image each at high
 * concurrency (1 then 2 instances). Prints images/s and ratios; writes JSON to `$OUT/gpu-bench.json`
 * when `OUT` is set, and to `--json <file>`.
 *
 *   node dist/bench/gpu/run.js [--seconds 8] [--concurrency 128] [--batch 32] [--raw-provider webgpu] [--session-thread on|off]
 *   node dist/bench/gpu/run.js --model model-store/mlp/model.onnx --providers cpu --raw-provider cpu --device cpu
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ExecutionProviderName } from '../../src/sdk/index.js';
import { OnnxRuntime } from '../../src/runtime/onnx/index.js';
import { createLogger, lineSink } from '../../src/telemetry/logging/pino-logger.js';
import { executorRuns, rawSessionRun, type InProcessRun } from './in-process.js';
import { driveLoad, type LoadRun } from './load-generator.js';
import { binaryInferRequest } from './oip-binary-request.js';
import { scaleModel, startSluiceProcess } from './sluice-process.js';
import { parseBenchArgs } from '../bench-args.js';

const run = promisify(execFile);
const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = join(distRoot, '..');

const values = parseBenchArgs('node dist/bench/gpu/run.js', {
  'models-dir': { type: 'string', default: join(tmpdir(), 'sluice-gpu-bench') },
  model: { type: 'string' },
  'model-fp16': { type: 'string' },
  providers: { type: 'string', default: 'cuda,webgpu,cpu' },
  'raw-provider': { type: 'string', default: 'webgpu' },
  device: { type: 'string', default: 'gpu:0' },
  executor: { type: 'string', default: 'gpu' },
  batch: { type: 'string', default: '32' },
  concurrency: { type: 'string', default: '128' },
  seconds: { type: 'string', default: '8' },
  'in-process-seconds': { type: 'string', default: '5' },
  skip: { type: 'string', default: '' },
  'session-thread': { type: 'string', default: 'on' },
  json: { type: 'string' },
});
const batch = Number(values.batch);
const concurrency = Number(values.concurrency);
const seconds = Number(values.seconds);
const inProcessSeconds = Number(values['in-process-seconds']);
const providers = values.providers.split(',') as ExecutionProviderName[];
const rawProvider = values['raw-provider'] as 'cpu' | 'webgpu' | 'cuda';
const sessionThread = values['session-thread'] !== 'off';
const skip = new Set(values.skip.split(',').filter((s) => s !== ''));
const say = (text: string): void => {
  process.stdout.write(text + '\n');
};
const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The models to measure: given on the command line, or ResNet-50 exported here. */
async function models(): Promise<{ fp32: string; fp16?: string }> {
  if (values.model !== undefined) return { fp32: values.model, ...(values['model-fp16'] !== undefined ? { fp16: values['model-fp16'] } : {}) };
  const dir = values['models-dir'];
  say(`exporting ResNet-50 to ${dir} …`);
  const { stdout } = await run('python3', [join(repoRoot, 'bench', 'gpu', 'export-resnet50.py'), dir], { maxBuffer: 16 * 1024 * 1024 });
  process.stdout.write(stdout);
  return { fp32: join(dir, 'resnet50-fp32.onnx'), fp16: join(dir, 'resnet50-fp16.onnx') };
}

async function machine(): Promise<Record<string, unknown>> {
  const gpu = await run('nvidia-smi', ['--query-gpu=name,driver_version,memory.total', '--format=csv,noheader']).then(
    ({ stdout }) => stdout.trim(),
    () => 'none',
  );
  const ort = JSON.parse(await readFile(join(repoRoot, 'node_modules', 'onnxruntime-node', 'package.json'), 'utf8')) as { version: string };
  return { gpu, cpus: cpus().length, node: process.version, onnxruntimeNode: ort.version };
}

interface ServerRun extends LoadRun {
  readonly name: string;
}

/** A model-store entry `name` holding `modelPath`, served by the GPU executor with batching. */
async function addModel(store: string, name: string, modelPath: string, executorOptions?: Record<string, unknown>): Promise<void> {
  const dir = join(store, name);
  await mkdir(dir, { recursive: true });
  await copyFile(modelPath, join(dir, 'model.onnx'));
  const manifest = {
    name,
    version: '1',
    model: 'model.onnx',
    ...(values.executor !== 'none' ? { executor: values.executor } : {}),
    device: values.device,
    batching: { maxBatchSize: batch, maxBatchDelayMs: 2 },
    workers: { min: 1, max: 2 },
    jobQueueSize: concurrency * 4,
    runtimeOptions: { executionProviders: providers },
    ...(executorOptions !== undefined && values.executor === 'gpu' ? { executorOptions } : {}),
  };
  await writeFile(join(dir, 'model.yaml'), JSON.stringify(manifest, null, 2));
}

async function inputOf(modelPath: string): Promise<{ name: string; rowShape: number[] }> {
  const loaded = await new OnnxRuntime().load(modelPath, { executionProviders: ['cpu'] });
  await loaded.release();
  const [spec] = loaded.inputs;
  if (spec === undefined) throw new Error(`${modelPath} has no input`);
  return { name: spec.name, rowShape: [1, ...spec.shape.slice(1).map((d) => (d > 0 ? d : 1))] };
}

async function serverRuns(paths: { fp32: string; fp16?: string }, notes: string[]): Promise<ServerRun[]> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-gpu-serve-'));
  const store = join(dir, 'model-store');
  const names = ['resnet50', ...(paths.fp16 !== undefined ? ['resnet50-fp16'] : [])];
  await addModel(store, 'resnet50', paths.fp32, { sessionThread });
  if (paths.fp16 !== undefined) await addModel(store, 'resnet50-fp16', paths.fp16, { sessionThread });
  const input = await inputOf(paths.fp32);
  const server = await startSluiceProcess(distRoot, dir, store, names);
  const results: ServerRun[] = [];
  try {
    for (const line of server.notable) notes.push(`server: ${JSON.stringify(line)}`);
    const isLoaded = (model: string): boolean => server.loaded.some((entry) => entry.startsWith(`${model}@`));
    /** Drives `model` scaled to exactly `instances` instances (the autoscaler would otherwise add one). */
    const drive = async (name: string, model: string, datatype: 'FP32' | 'FP16', instances: number): Promise<void> => {
      if (!isLoaded(model)) {
        notes.push(`server: ${model} did not load`);
        return;
      }
      await scaleModel(server.management, model, instances);
      const payload = binaryInferRequest(input.name, input.rowShape, datatype);
      const load = await driveLoad(`${server.inference}/v2/models/${model}/infer`, payload, concurrency, seconds, 2);
      results.push({ name, ...load });
      say(`  ${name}: ${load.imagesPerSecond.toFixed(0)} img/s, p50 ${load.p50Ms.toFixed(1)} ms, p99 ${load.p99Ms.toFixed(1)} ms, failed ${load.failed}`);
      if (load.firstFailure !== undefined) say(`    first failure: ${load.firstFailure}`);
    };
    await drive('served fp32, 1 instance', 'resnet50', 'FP32', 1);
    await drive('served fp32, 2 instances', 'resnet50', 'FP32', 2);
    if (paths.fp16 !== undefined) await drive('served fp16 (FP16 requests), 2 instances', 'resnet50-fp16', 'FP16', 2);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}

const report: {
  date: string;
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  raw: InProcessRun[];
  executor: InProcessRun[];
  served: ServerRun[];
  ratios: Record<string, number>;
  notes: string[];
} = {
  date: new Date().toISOString(),
  machine: await machine(),
  settings: { batch, concurrency, seconds, inProcessSeconds, providers, rawProvider, device: values.device, executor: values.executor, sessionThread },
  raw: [],
  executor: [],
  served: [],
  ratios: {},
  notes: [],
};
say(`machine: ${JSON.stringify(report.machine)}`);

const paths = await models();
const logger = createLogger(
  'info',
  lineSink((line) => {
    report.notes.push(`executor: ${line}`);
    say(`  log: ${line}`);
  }),
);

async function phase(name: string, body: () => Promise<void>): Promise<void> {
  if (skip.has(name)) return;
  say(`\n${name}`);
  try {
    await body();
  } catch (error) {
    report.notes.push(`${name} failed: ${errorText(error)}`);
    say(`  failed: ${errorText(error)}`);
  }
}

await phase('raw', async () => {
  for (const [label, path] of [['fp32', paths.fp32], ['fp16', paths.fp16]] as const) {
    if (path === undefined) continue;
    const result = await rawSessionRun(`session.run ${rawProvider} ${label}`, path, rawProvider, batch, inProcessSeconds);
    report.raw.push(result);
    say(`  ${result.name}, batch ${batch}: ${result.imagesPerSecond.toFixed(0)} img/s`);
  }
});

await phase('executor', async () => {
  const options = { executionProviders: providers, sessionThread };
  const fp32 = await executorRuns('executor fp32', paths.fp32, options, batch, [1, 2], inProcessSeconds, logger);
  const fp16 = paths.fp16 === undefined ? [] : await executorRuns('executor fp16 (FP32 items)', paths.fp16, options, batch, [1], inProcessSeconds, logger);
  for (const result of [...fp32, ...fp16]) {
    report.executor.push(result);
    say(`  ${result.name}, batch ${batch}: ${result.imagesPerSecond.toFixed(0)} img/s`);
  }
});

await phase('server', async () => {
  report.served.push(...(await serverRuns(paths, report.notes)));
});

const rate = (list: readonly { name: string; imagesPerSecond: number }[], name: string): number | undefined => list.find((r) => r.name === name)?.imagesPerSecond;
const ratio = (key: string, top: number | undefined, bottom: number | undefined): void => {
  if (top !== undefined && bottom !== undefined && bottom > 0) report.ratios[key] = top / bottom;
};
const rawFp32 = rate(report.raw, `session.run ${rawProvider} fp32`);
const rawFp16 = rate(report.raw, `session.run ${rawProvider} fp16`);
ratio('served fp32 1 instance / session.run fp32', rate(report.served, 'served fp32, 1 instance'), rawFp32);
ratio('served fp32 2 instances / 1 instance', rate(report.served, 'served fp32, 2 instances'), rate(report.served, 'served fp32, 1 instance'));
ratio('served fp32 2 instances / session.run fp32', rate(report.served, 'served fp32, 2 instances'), rawFp32);
ratio('served fp16 2 instances / session.run fp16', rate(report.served, 'served fp16 (FP16 requests), 2 instances'), rawFp16);
ratio('executor fp32 1 instance / session.run fp32', rate(report.executor, 'executor fp32, 1 instance'), rawFp32);
ratio('executor fp32 2 instances / 1 instance', rate(report.executor, 'executor fp32, 2 instances'), rate(report.executor, 'executor fp32, 1 instance'));
ratio('executor fp16 (FP32 items) / session.run fp16', rate(report.executor, 'executor fp16 (FP32 items), 1 instance'), rawFp16);

say('\nratios');
for (const [key, value] of Object.entries(report.ratios)) say(`  ${key}: ${value.toFixed(2)}`);
const json = JSON.stringify(report, null, 2);
const out = process.env.OUT;
if (out !== undefined && out !== '') await writeFile(join(out, 'gpu-bench.json'), json);
if (values.json !== undefined) await writeFile(values.json, json);
say(`cpus ${cpus().length}; done`);
