/**
 * `npm run bench:threads`: `session.run` throughput of the demo MLP and CNN in this process with ONNX
 * Runtime's `intraOpNumThreads` at 0 (Sluice's default: one thread per physical core, as Sluice counts
 * them), 1 and 2, at batch 1 and at the best batch size, to choose Sluice's default thread setting.
 *
 *   npm run bench:threads -- [--seconds 1] [--threads 0,1,2] [--json threads.json]
 */
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchModels } from './bench-models.js';
import { bestInProcess, type InProcessRun } from './bench-results.js';
import { IN_PROCESS_BATCH_SIZES, measureSessionThroughput } from './in-process.js';
import { describeMachine, machineInfo } from './machine-info.js';
import { BUSY_CORES, formatCount, formatTable } from './report.js';
import { parseBenchArgs } from './bench-args.js';

const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(distRoot, '..');
const values = parseBenchArgs('npm run bench:threads --', { seconds: { type: 'string', default: '1' }, threads: { type: 'string', default: '0,1,2' }, json: { type: 'string' } });
const secondsPerBatch = Number(values.seconds);
const threadCounts = values.threads.split(',').map(Number);
if (!(secondsPerBatch > 0) || threadCounts.some((count) => !Number.isInteger(count) || count < 0)) {
  throw new Error('usage: ort-threads [--seconds S] [--threads 0,1,2] [--json FILE]');
}

const machine = machineInfo();
const models = benchModels(repoRoot);
const runs: InProcessRun[] = [];
for (const model of [models.mlp, models.cnn]) {
  for (const intraOpNumThreads of threadCounts) {
    process.stderr.write(`${model.name}: intraOpNumThreads ${intraOpNumThreads}\n`);
    runs.push(
      ...(await measureSessionThroughput({
        model: model.name,
        modelPath: join(model.dir, 'model.onnx'),
        inputName: model.inputName,
        itemShape: model.itemShape,
        batchSizes: IN_PROCESS_BATCH_SIZES,
        secondsPerBatch,
        intraOpNumThreads,
        cpus: machine.cpus,
      })),
    );
  }
}

const rows: string[][] = [];
for (const model of [models.mlp, models.cnn]) {
  for (const threads of threadCounts) {
    const own = runs.filter((run) => run.model === model.name && run.intraOpNumThreads === threads);
    const single = own.find((run) => run.batchSize === 1);
    const best = bestInProcess(own, model.name);
    rows.push([
      model.name,
      threads === 0 ? `0 (default: ${own[0]?.threadsUsed ?? '?'})` : String(threads),
      formatCount(single?.itemsPerSecond ?? Number.NaN),
      formatCount(single?.runUs ?? Number.NaN),
      best === undefined ? '-' : String(best.batchSize),
      formatCount(best?.itemsPerSecond ?? Number.NaN),
      formatCount(best?.runUs ?? Number.NaN),
    ]);
  }
}
process.stdout.write(
  [
    `\nONNX Runtime intra-op threads, ${new Date().toISOString()}`,
    describeMachine(machine),
    `${secondsPerBatch} s per batch size (${IN_PROCESS_BATCH_SIZES.join(', ')}); session.run in this process\n`,
    formatTable(['model', 'intraOpNumThreads', 'batch 1 items/s', 'batch 1 µs/run', 'best batch', 'best items/s', 'best µs/run'], rows),
    ...runs
      .filter((run) => run.otherCpu !== undefined && run.otherCpu >= BUSY_CORES)
      .map((run) => `warning: other processes used ${run.otherCpu?.toFixed(2) ?? '?'} cores during ${run.model}, ${run.intraOpNumThreads} threads, batch ${run.batchSize}\n`),
  ].join('\n'),
);
if (values.json !== undefined) {
  await writeFile(values.json, JSON.stringify({ date: new Date().toISOString(), machine, secondsPerBatch, runs }, null, 2) + '\n');
}
