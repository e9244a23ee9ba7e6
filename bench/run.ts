/**
 * `npm run bench`: the demo MLP and CNN measured in one run, side by side, with four setups (see
 * {@link SETUP_LABELS}): `session.run` in this process at the best batch size, a hand-rolled Fastify +
 * onnxruntime-node route, Sluice with batching off and Sluice with dynamic batching, each server at
 * several concurrencies. The servers are measured in rounds (`--rounds`, 3 by default), each setup once
 * per round in alternating order; the tables show the medians over the rounds, and each target is judged
 * on the median of its per-round figures. Prints the results, the ratios between setups and Sluice's
 * targets. Absolute figures depend on the machine; the ratios, measured in one run, are what to compare.
 *
 *   npm run bench -- [--duration 5] [--rounds 3] [--concurrency 1,16,64] [--models mlp,cnn] [--json results.json]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_USAGE, parseBenchOptions, type BenchOptions } from './bench-options.js';
import { argsOrExit } from './bench-args.js';
import { benchModels } from './bench-models.js';
import { SETUP_LABELS, type BenchResults, type InProcessRun, type LoadRun } from './bench-results.js';
import { IN_PROCESS_BATCH_SIZES, measureSessionThroughput } from './in-process.js';
import { startForeignCpuMeter } from './cpu-usage.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { measureServer } from './measure-server.js';
import { roundOrder } from './bench-rounds.js';
import { busyMachineWarnings, formatInProcessTable, formatRatios, formatResultsTable, formatTargets } from './report.js';
import { serverSetup } from './server-setups.js';
import { checkTargets } from './targets.js';

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');

function progress(text: string): void {
  process.stderr.write(text + '\n');
}

async function measure(options: BenchOptions): Promise<BenchResults> {
  const machine = machineInfo();
  // A second of the machine without the benchmark: is anything else using the CPUs?
  const idleCheck = await startForeignCpuMeter([process.pid], machine.cpus);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const otherCpuAtStart = await idleCheck?.();
  if (otherCpuAtStart !== undefined && otherCpuAtStart >= 0.1) {
    progress(`warning: other processes are using ${otherCpuAtStart.toFixed(2)} cores; the figures will be skewed`);
  }
  const models = benchModels(repoRoot);
  const inProcess: InProcessRun[] = [];
  const load: LoadRun[] = [];
  for (const name of options.models) {
    const model = models[name];
    if (options.setups.includes('a')) {
      progress(`${name}: ${SETUP_LABELS.a}, batch ${IN_PROCESS_BATCH_SIZES.join(', ')}`);
      inProcess.push(
        ...(await measureSessionThroughput({
          model: name,
          modelPath: join(model.dir, 'model.onnx'),
          inputName: model.inputName,
          itemShape: model.itemShape,
          batchSizes: IN_PROCESS_BATCH_SIZES,
          secondsPerBatch: Math.min(3, Math.max(0.5, options.durationSeconds / 3)),
          intraOpNumThreads: 0,
          cpus: machine.cpus,
        })),
      );
    }
    const setups = (['b', 'c', 'd'] as const).filter((id) => options.setups.includes(id));
    for (let round = 0; round < options.rounds; round++) {
      for (const setup of roundOrder(setups, round)) {
        progress(`${name}${options.rounds > 1 ? `, round ${round + 1} of ${options.rounds}` : ''}: ${SETUP_LABELS[setup]}`);
        load.push(
          ...(await measureServer(serverSetup(setup, model, distRoot, { serverLog: options.serverLog, ...(options.maxBatchDelayMs !== undefined ? { maxBatchDelayMs: options.maxBatchDelayMs } : {}) }), {
            round,
            concurrencies: options.concurrencies,
            durationSeconds: options.durationSeconds,
            warmupSeconds: options.warmupSeconds,
            cpus: machine.cpus,
            onRun: (run) => {
              progress(`  c=${run.concurrency}: ${Math.round(run.requestsPerSecond)} req/s, p50 ${Math.round(run.p50Us)} µs, ${run.non2xx + run.errors} failed`);
            },
          })),
        );
      }
    }
  }
  return {
    date: new Date().toISOString(),
    machine,
    durationSeconds: options.durationSeconds,
    rounds: options.rounds,
    concurrencies: options.concurrencies,
    models: options.models,
    ...(options.maxBatchDelayMs !== undefined ? { maxBatchDelayMs: options.maxBatchDelayMs } : {}),
    serverLog: options.serverLog,
    inProcess,
    load,
    ...(otherCpuAtStart !== undefined ? { otherCpuAtStart } : {}),
  };
}

function report(results: BenchResults): string {
  const models = benchModels(repoRoot);
  return [
    `\nSluice benchmark, ${results.date}`,
    describeMachine(results.machine),
    `${results.durationSeconds} s per load run, ${results.rounds === 1 ? 'one round' : `${results.rounds} rounds (figures: medians over the rounds)`}${results.maxBatchDelayMs !== undefined ? `; setup d with maxBatchDelayMs ${results.maxBatchDelayMs}` : ''}; Sluice logs to a ${results.serverLog}; models: ${results.models.map((name) => models[name as keyof typeof models].label).join('; ')}\n`,
    'a: session.run in this process (items/s)',
    formatInProcessTable(results.inProcess),
    'results (req/s = 2xx responses per second; p50 and p99 from every response time)',
    formatResultsTable(results),
    'ratios (throughput; d/a and b/a against the best batch of a)',
    formatRatios(results),
    'targets',
    formatTargets(checkTargets(results)),
    busyMachineWarnings(results),
  ].join('\n');
}

const options = argsOrExit(parseBenchOptions, BENCH_USAGE);
const results = await measure(options);
process.stdout.write(report(results));
if (options.json !== undefined) {
  await writeFile(options.json, JSON.stringify({ ...results, targets: checkTargets(results) }, null, 2) + '\n');
  progress(`wrote ${options.json}`);
}
