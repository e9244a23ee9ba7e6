/**
 * `npm run bench:lone`: what a lone client waits for, measured against the HTTP floor. At one
 * connection, for each model, in alternating rounds:
 * - the HTTP floor: a Fastify route that reads the body and answers fixed bytes, with no model;
 * - setup b, the hand-rolled route, which runs the model;
 * - setup c, Sluice with batching off;
 * - setup d, Sluice with the manifest's batching.
 * Prints each run's p50 and the medians of p50(b) − p50(floor) and p50(c) − p50(floor): what each
 * server's own work adds to the least any HTTP server on this machine makes a lone client wait; and the
 * median of the rounds' p50(d)/p50(c), what batching costs a lone client, which one run of `npm run
 * bench` cannot settle on a busy machine (its c and d run once each, one after the other). On a
 * virtual machine whose idle cores wake slowly, a server that keeps a core busy between requests (the
 * hand-rolled route's ONNX Runtime thread spins) can come in under the floor.
 *
 *   npm run bench:lone -- [--models mlp,cnn] [--duration 5] [--rounds 3] [--json FILE]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchModels } from './bench-models.js';
import { median, roundOrder } from './bench-rounds.js';
import { BENCH_MODEL_NAMES, type BenchModelName } from './bench-options.js';
import { startHttpFloor, type BenchServer } from './bench-processes.js';
import { runLoad } from './load.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { type BenchRequest } from './request-bodies.js';
import { serverSetup } from './server-setups.js';
import { parseBenchArgs } from './bench-args.js';

const WARM_UP_SECONDS = 2;

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');
const values = parseBenchArgs('npm run bench:lone --', {
  models: { type: 'string', default: BENCH_MODEL_NAMES.join(',') },
  duration: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '3' },
  json: { type: 'string' },
});
const durationSeconds = Number(values.duration);
const rounds = Number(values.rounds);
const modelNames = values.models.split(',').map((name) => {
  if (!(BENCH_MODEL_NAMES as readonly string[]).includes(name)) throw new Error(`unknown model ${name}; the models are ${BENCH_MODEL_NAMES.join(', ')}`);
  return name as BenchModelName;
});

type Variant = 'floor' | 'b' | 'c' | 'd';
const LABELS: Record<Variant, string> = { floor: 'HTTP floor (no model)', b: 'b hand-rolled route', c: 'c Sluice, batching off', d: 'd Sluice, batching on' };
const models = benchModels(repoRoot);
const machine = machineInfo();

/** Starts `variant` for `model`: the floor gets the hand-rolled route's request, as it reads any body. */
async function start(variant: Variant, model: BenchModelName): Promise<{ server: BenchServer; request: BenchRequest }> {
  const bench = models[model];
  if (variant === 'floor') return { server: await startHttpFloor(distRoot), request: bench.handRolledRequest };
  const setup = serverSetup(variant, bench, distRoot);
  return { server: await setup.start(), request: setup.request };
}

const variants: readonly Variant[] = ['floor', 'b', 'c', 'd'];
const runs: { model: BenchModelName; round: number; variant: Variant; p50Us: number; requestsPerSecond: number; non2xx: number; errors: number }[] = [];
for (const model of modelNames) {
  for (let round = 1; round <= rounds; round++) {
    for (const variant of roundOrder(variants, round - 1)) {
      process.stderr.write(`${model} round ${round}: ${LABELS[variant]}, c=1, ${durationSeconds} s\n`);
      const { server, request } = await start(variant, model);
      try {
        await runLoad({ baseUrl: server.baseUrl, request, connections: 1, durationSeconds: WARM_UP_SECONDS });
        const m = await runLoad({ baseUrl: server.baseUrl, request, connections: 1, durationSeconds });
        runs.push({ model, round, variant, p50Us: m.p50Us, requestsPerSecond: m.requestsPerSecond, non2xx: m.non2xx, errors: m.errors });
      } finally {
        await server.stop();
      }
    }
  }
}

/** The median over rounds of `combine` applied to one round's p50 of each variant. */
const perRound = (model: BenchModelName, combine: (p50: (v: Variant) => number) => number): number =>
  median(
    Array.from({ length: rounds }, (_, i) => i + 1).map((round) =>
      combine((v) => runs.find((r) => r.model === model && r.round === round && r.variant === v)?.p50Us ?? NaN),
    ),
  );
/** The median over rounds of `variant`'s p50 minus the floor's p50 of the same round. */
const overFloor = (model: BenchModelName, variant: Variant): number => perRound(model, (p50) => p50(variant) - p50('floor'));
/** The median over rounds of p50(d)/p50(c) of the same round. */
const batchingCost = (model: BenchModelName): number => perRound(model, (p50) => p50('d') / p50('c'));
const failed = runs.filter((r) => r.non2xx > 0 || r.errors > 0);
const lines = [
  describeMachine(machine),
  `c=1, ${rounds} round(s) of ${durationSeconds} s per server`,
  ...runs.map(
    (r) =>
      `  ${r.model} round ${r.round} ${LABELS[r.variant].padEnd(24)} p50 ${r.p50Us.toFixed(0).padStart(5)} µs  ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s${r.non2xx + r.errors > 0 ? `  ! ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
  ),
  ...modelNames.map(
    (model) =>
      `${model}: p50(b) − p50(floor) = ${overFloor(model, 'b').toFixed(0)} µs, p50(c) − p50(floor) = ${overFloor(model, 'c').toFixed(0)} µs, so p50(c) − p50(b) = ${(overFloor(model, 'c') - overFloor(model, 'b')).toFixed(0)} µs; p50(d)/p50(c) = ${batchingCost(model).toFixed(2)} (medians over rounds)`,
  ),
  ...(failed.length > 0 ? [`! ${failed.length} run(s) had failed requests: their figures are not valid`] : []),
];
process.stdout.write(lines.join('\n') + '\n');
if (values.json !== undefined) await writeFile(values.json, JSON.stringify({ machine, durationSeconds, rounds, runs }, null, 2));
