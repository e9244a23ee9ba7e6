import * as ort from 'onnxruntime-node';
import { type InProcessRun } from './bench-results.js';
import { sampleInstance } from './bench-models.js';
import { startForeignCpuMeter } from './cpu-usage.js';
import { keepOnnxRuntimeTelemetryOff } from '../src/runtime/onnx/onnx-runtime-telemetry.js';
import { physicalCoresAvailable } from '../src/runtime/onnx/physical-cores.js';
import { intraOpThreads } from '../src/runtime/onnx/session-options.js';

/** Batch sizes setup a tries; the best is the in-process throughput limit. */
export const IN_PROCESS_BATCH_SIZES: readonly number[] = [1, 8, 16, 32, 64, 128];

/** What to measure in the benchmark process. */
export interface SessionThroughputSpec {
  readonly model: string;
  readonly modelPath: string;
  readonly inputName: string;
  /** Shape of one instance, without the batch dimension. */
  readonly itemShape: readonly number[];
  readonly batchSizes: readonly number[];
  /** Time spent measuring each batch size, after its warm-up. */
  readonly secondsPerBatch: number;
  /** ORT intra-op threads; 0 is one per physical core, counted as Sluice counts them by default. */
  readonly intraOpNumThreads: number;
  /** CPUs of the machine, to tell how much other processes used meanwhile. */
  readonly cpus: number;
}

/**
 * Calls `session.run` back to back at each batch size and reports items per second: no HTTP, no
 * serialisation, nothing but ONNX Runtime. Session options are Sluice's defaults except for the threads.
 */
export async function measureSessionThroughput(spec: SessionThroughputSpec): Promise<InProcessRun[]> {
  const threadsUsed = intraOpThreads(spec.intraOpNumThreads, physicalCoresAvailable());
  keepOnnxRuntimeTelemetryOff();
  const session = await ort.InferenceSession.create(spec.modelPath, {
    intraOpNumThreads: threadsUsed,
    interOpNumThreads: 0,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
  });
  try {
    const itemSize = spec.itemShape.reduce((product, dim) => product * dim, 1);
    const instance = sampleInstance(itemSize);
    const runs: InProcessRun[] = [];
    for (const batchSize of spec.batchSizes) {
      const data = new Float32Array(batchSize * itemSize);
      for (let i = 0; i < batchSize; i++) data.set(instance, i * itemSize);
      const feeds = { [spec.inputName]: new ort.Tensor('float32', data, [batchSize, ...spec.itemShape]) };
      const warmUntil = performance.now() + Math.min(500, spec.secondsPerBatch * 200);
      while (performance.now() < warmUntil) await session.run(feeds);
      const otherCpu = await startForeignCpuMeter([process.pid], spec.cpus);
      let count = 0;
      const started = performance.now();
      const until = started + spec.secondsPerBatch * 1000;
      // At least a few runs, so one slow batch size still gets a figure.
      while (count < 5 || performance.now() < until) {
        await session.run(feeds);
        count++;
      }
      const elapsedMs = performance.now() - started;
      const other = await otherCpu?.();
      runs.push({
        model: spec.model,
        batchSize,
        intraOpNumThreads: spec.intraOpNumThreads,
        threadsUsed,
        runs: count,
        itemsPerSecond: (count * batchSize * 1000) / elapsedMs,
        runUs: (elapsedMs * 1000) / count,
        ...(other !== undefined ? { otherCpu: other } : {}),
      });
    }
    return runs;
  } finally {
    await session.release();
  }
}
