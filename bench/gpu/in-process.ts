import { InferenceSession, Tensor as OrtTensor } from 'onnxruntime-node';
import { GpuExecutor, type GpuExecutorOptions } from '../../plugins/gpu-executor/index.js';
import type { Logger } from '../../src/sdk/logging/logger.js';
import type { Tensor } from '../../src/sdk/tensor/index.js';
import { OnnxRuntime } from '../../src/runtime/onnx/index.js';
import { keepOnnxRuntimeTelemetryOff } from '../../src/runtime/onnx/onnx-runtime-telemetry.js';

/** Images per second of one in-process measurement. */
export interface InProcessRun {
  readonly name: string;
  readonly batchSize: number;
  readonly seconds: number;
  readonly imagesPerSecond: number;
  readonly runs: number;
}

/** Calls `step` (which handles `images` images) back to back for `seconds`, after `warmUpRuns` uncounted calls. */
async function timeLoop(step: () => Promise<number>, seconds: number, warmUpRuns: number): Promise<{ images: number; runs: number; elapsed: number }> {
  for (let i = 0; i < warmUpRuns; i += 1) await step();
  const start = performance.now();
  const end = start + seconds * 1000;
  let images = 0;
  let runs = 0;
  while (performance.now() < end) {
    images += await step();
    runs += 1;
  }
  return { images, runs, elapsed: (performance.now() - start) / 1000 };
}

/**
 * Bare onnxruntime-node: `session.run` on `provider` with a batch of `batchSize` images of `rowShape`,
 * FP32 or FP16 as the model's input is: the bar a server on the same runtime can reach.
 */
export async function rawSessionRun(name: string, modelPath: string, provider: 'cpu' | 'webgpu' | 'cuda', batchSize: number, seconds: number): Promise<InProcessRun> {
  keepOnnxRuntimeTelemetryOff();
  const session = await InferenceSession.create(modelPath, { executionProviders: [provider], graphOptimizationLevel: 'all', logSeverityLevel: 3 });
  try {
    const inputName = session.inputNames[0] ?? 'input';
    const meta = session.inputMetadata[0];
    const dims = meta?.isTensor === true ? meta.shape.slice(1).map((d) => (typeof d === 'number' && d > 0 ? d : 1)) : [];
    const shape = [batchSize, ...dims];
    const count = shape.reduce((a, b) => a * b, 1);
    const fp16 = meta?.isTensor === true && meta.type === 'float16';
    const tensor = fp16 ? new OrtTensor('float16', new Uint16Array(count).fill(0x3c00), shape) : new OrtTensor('float32', new Float32Array(count).fill(0.5), shape);
    const loop = await timeLoop(
      async () => {
        await session.run({ [inputName]: tensor });
        return batchSize;
      },
      seconds,
      3,
    );
    return { name, batchSize, seconds: loop.elapsed, imagesPerSecond: loop.images / loop.elapsed, runs: loop.runs };
  } finally {
    await session.release();
  }
}

/**
 * The GPU executor in process, no HTTP: `instances` instances on one device each run batches of
 * `batchSize` one-image items (FP32 data, converted when the model is FP16) back to back, for
 * `seconds` per instance count.
 */
export async function executorRuns(
  label: string,
  modelPath: string,
  options: GpuExecutorOptions,
  batchSize: number,
  instanceCounts: readonly number[],
  seconds: number,
  logger: Logger,
): Promise<InProcessRun[]> {
  const model = await new GpuExecutor(options).load({
    modelPath,
    runtime: new OnnxRuntime(),
    sessionOptions: {},
    device: 'gpu:0',
    maxBatchSize: batchSize,
    logger,
  });
  try {
    const [spec] = model.inputs;
    if (spec === undefined) throw new Error(`${modelPath} has no input`);
    const rowShape = [1, ...spec.shape.slice(1).map((d) => (d > 0 ? d : 1))];
    const rowLength = rowShape.reduce((a, b) => a * b, 1);
    const items = Array.from({ length: batchSize }, (_, i) => ({
      rows: 1,
      inputs: [{ name: spec.name, datatype: 'FP32', shape: rowShape, data: new Float32Array(rowLength).fill(i / batchSize) } satisfies Tensor],
    }));
    const results: InProcessRun[] = [];
    for (const count of instanceCounts) {
      const instances = await Promise.all(Array.from({ length: count }, (_, index) => model.createInstance(index)));
      const loops = await Promise.all(
        instances.map((instance) =>
          timeLoop(
            async () => {
              for (const answer of await instance.run({ items })) if (!answer.ok) throw answer.error;
              return batchSize;
            },
            seconds,
            2,
          ),
        ),
      );
      const images = loops.reduce((sum, loop) => sum + loop.images, 0);
      const elapsed = Math.max(...loops.map((loop) => loop.elapsed));
      results.push({ name: `${label}, ${count} instance${count === 1 ? '' : 's'}`, batchSize, seconds: elapsed, imagesPerSecond: images / elapsed, runs: loops.reduce((s, l) => s + l.runs, 0) });
    }
    return results;
  } finally {
    await model.release();
  }
}
