/**
 * `npm run bench`: the MLP (64→256→256→10) served by a hand-rolled Fastify + onnxruntime-node route and
 * by Sluice, measured in one run at several concurrencies, printing req/s, p50, p99 and Sluice's ratios
 * to the baseline. Absolute figures depend on the machine; the ratios are what to compare.
 *
 *   npm run bench -- [--duration 5] [--concurrency 1,16,64] [--json results.json]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startHandRolled, startSluice, type BenchServer } from './bench-processes.js';
import { runLoad, type LoadResult } from './load.js';

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '1,16,64' },
    json: { type: 'string' },
  },
});
const durationSeconds = Number(values.duration);
const concurrencies = values.concurrency.split(',').map(Number);
const input = Array.from({ length: 64 }, (_, i) => Math.sin(i));

interface Setup {
  readonly name: string;
  readonly start: () => Promise<BenchServer>;
  readonly path: string;
  readonly body: string;
}

const setups: Setup[] = [
  {
    name: 'hand-rolled fastify + ORT',
    start: () => startHandRolled(distRoot, join(repoRoot, 'model-store', 'mlp', 'model.onnx')),
    path: '/predict',
    body: JSON.stringify({ data: input }),
  },
  {
    name: 'sluice /predictions',
    start: () => startSluice(distRoot, join(repoRoot, 'model-store'), ['mlp']),
    path: '/predictions/mlp',
    body: JSON.stringify(input),
  },
  {
    name: 'sluice /v2 infer (JSON)',
    start: () => startSluice(distRoot, join(repoRoot, 'model-store'), ['mlp']),
    path: '/v2/models/mlp/infer',
    body: JSON.stringify({ inputs: [{ name: 'input', shape: [1, 64], datatype: 'FP32', data: input }] }),
  },
];

const results: { setup: string; concurrency: number; result: LoadResult }[] = [];
for (const setup of setups) {
  const server = await setup.start();
  try {
    // Warm-up: JIT, ORT arenas, connection pools.
    await runLoad({ url: server.baseUrl + setup.path, body: setup.body, connections: 4, durationSeconds: 1 });
    for (const concurrency of concurrencies) {
      const result = await runLoad({ url: server.baseUrl + setup.path, body: setup.body, connections: concurrency, durationSeconds });
      results.push({ setup: setup.name, concurrency, result });
    }
  } finally {
    await server.stop();
  }
}

const pad = (text: string, width: number): string => text.padEnd(width);
const fmt = (n: number, digits = 2): string => n.toFixed(digits);
process.stdout.write(`\nMLP 64→256→256→10, ${durationSeconds} s per run\n\n`);
process.stdout.write(`${pad('setup', 28)}${pad('c', 5)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}errors\n`);
for (const { setup, concurrency, result } of results) {
  process.stdout.write(
    `${pad(setup, 28)}${pad(String(concurrency), 5)}${pad(fmt(result.requestsPerSecond, 0), 10)}${pad(fmt(result.p50Ms), 9)}${pad(fmt(result.p99Ms), 9)}${result.errors + result.non2xx}\n`,
  );
}
process.stdout.write('\nratios to the hand-rolled baseline (throughput; p50 difference)\n');
const baseline = setups[0]?.name ?? '';
for (const { setup, concurrency, result } of results.filter((r) => r.setup !== baseline)) {
  const base = results.find((r) => r.setup === baseline && r.concurrency === concurrency)?.result;
  if (base === undefined) continue;
  process.stdout.write(
    `${pad(setup, 28)}c=${pad(String(concurrency), 4)}${fmt(result.requestsPerSecond / base.requestsPerSecond)}×   p50 ${result.p50Ms - base.p50Ms >= 0 ? '+' : ''}${fmt(result.p50Ms - base.p50Ms)} ms\n`,
  );
}
if (values.json !== undefined) {
  await writeFile(values.json, JSON.stringify({ date: new Date().toISOString(), durationSeconds, results }, null, 2));
}
