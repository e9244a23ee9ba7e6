import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import type { Tensor } from '../../../../src/sdk/tensor/index.js';
import { CpuExecutor } from '../../../../plugins/cpu-executor/cpu-executor.js';
import type { ExecutorModel } from '../../../../src/sdk/executor/executor.js';
import type { LoadedModel, ModelRuntime, RuntimeSessionOptions } from '../../../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../../../src/runtime/onnx/onnx-runtime.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { writeAddModel } from '../../../support/onnx-models.js';
import { makeTempDir } from '../../../support/temp-dir.js';

/** The real ONNX Runtime, counting the sessions it loads. */
class CountingRuntime implements ModelRuntime {
  readonly name = 'onnx';
  loads = 0;
  private readonly onnx = new OnnxRuntime();

  load(modelPath: string, options: RuntimeSessionOptions): Promise<LoadedModel> {
    this.loads += 1;
    return this.onnx.load(modelPath, options);
  }
}

/** Inputs `a` and `b` of the Add model, `rows` × 3, whose sum row `r` is `tag * 100 + r`, repeated. */
function addInputs(tag: number, rows: number): Tensor[] {
  const a = Float32Array.from({ length: rows * 3 }, (_, i) => tag * 100 + Math.floor(i / 3));
  return [
    { name: 'a', datatype: 'FP32', shape: [rows, 3], data: a },
    { name: 'b', datatype: 'FP32', shape: [rows, 3], data: new Float32Array(rows * 3) },
  ];
}

describe('CpuExecutor', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let modelPath: string;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
    modelPath = await writeAddModel(dir);
  });

  afterAll(async () => {
    await cleanup();
  });

  async function load(runtime: ModelRuntime): Promise<ExecutorModel> {
    return new CpuExecutor().load({ modelPath, runtime, sessionOptions: {}, device: 'cpu', maxBatchSize: 8, logger: new RecordingLogger() });
  }

  it('is called cpu', () => {
    expect(new CpuExecutor().name).toBe('cpu');
  });

  it('answers each request of a batch with its own rows', async () => {
    const model = await load(new CountingRuntime());
    const instance = await model.createInstance(0);
    const items = [1, 2, 3].map((tag) => ({ inputs: addInputs(tag, tag), rows: tag }));
    const results = await instance.run({ items });
    await model.release();
    expect(results).toEqual(
      [1, 2, 3].map((tag) => ({
        ok: true,
        outputs: [{ name: 'sum', datatype: 'FP32', shape: [tag, 3], data: addInputs(tag, tag)[0]!.data }],
      })),
    );
  });

  it('loads the model once for all its instances', async () => {
    const runtime = new CountingRuntime();
    const model = await load(runtime);
    await Promise.all([0, 1, 2].map((index) => model.createInstance(index)));
    await model.release();
    expect(runtime.loads).toBe(1);
  });

  it('answers SLUICE_INFERENCE_FAILED when the run fails', async () => {
    const model = await load(new CountingRuntime());
    const instance = await model.createInstance(0);
    const [a] = addInputs(1, 2);
    const b: Tensor = { name: 'b', datatype: 'FP32', shape: [3, 3], data: new Float32Array(9) };
    const results = await instance.run({ items: [{ inputs: [a!, b], rows: 2 }] });
    await model.release();
    expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['SLUICE_INFERENCE_FAILED']);
  });

  it('refuses BYTES values ONNX Runtime cannot take through the session, before any run', async () => {
    const model = await load(new CountingRuntime());
    expect(() => {
      model.checkInput?.({ name: 'text', datatype: 'BYTES', shape: [1], data: [new Uint8Array([0x61, 0x00])] });
    }).toThrow(expect.objectContaining({ code: 'SLUICE_TENSOR_INVALID_VALUE' }));
    await model.release();
  });

  it('refuses executorOptions, which it has none of, with SLUICE_MANIFEST_INVALID before loading anything', async () => {
    const runtime = new CountingRuntime();
    const loading = new CpuExecutor().load({
      modelPath,
      runtime,
      sessionOptions: {},
      device: 'cpu',
      maxBatchSize: 8,
      executorOptions: { warmUp: false, deviceIds: [0] },
      logger: new RecordingLogger(),
    });
    await expect(loading).rejects.toEqual(
      new SluiceError(
        'SLUICE_MANIFEST_INVALID',
        `executorOptions of ${modelPath}: the cpu executor takes no options (got \`warmUp\`, \`deviceIds\`); remove executorOptions, or name the executor they are meant for (executor: gpu, say)`,
      ),
    );
    expect(runtime.loads).toBe(0);
  });

  it('takes empty executorOptions, which a manifest without any has', async () => {
    const model = await new CpuExecutor().load({ modelPath, runtime: new CountingRuntime(), sessionOptions: {}, device: 'cpu', maxBatchSize: 8, executorOptions: {}, logger: new RecordingLogger() });
    await model.release();
    expect(model.executionProvider).toBe('cpu');
  });

  it('runs on the provider the session uses', async () => {
    const model = await load(new CountingRuntime());
    const instance = await model.createInstance(0);
    await model.release();
    expect([model.executionProvider, instance.device]).toEqual(['cpu', 'cpu']);
  });

  it('warns, with the runtime’s reason, when the provider its session options prefer could not start', async () => {
    const logger = new RecordingLogger();
    const fellBack: ModelRuntime = {
      name: 'onnx',
      load: () =>
        Promise.resolve({
          inputs: [],
          outputs: [],
          executionProvider: 'cpu',
          providerSelection: { active: 'cpu', rejected: [{ provider: 'cuda', reason: 'Failed to load shared library' }] },
          run: () => Promise.resolve([]),
          release: () => Promise.resolve(),
        }),
    };
    await new CpuExecutor().load({ modelPath, runtime: fellBack, sessionOptions: { executionProviders: ['cuda'] }, device: 'cpu', maxBatchSize: 8, logger });
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: 'execution provider cpu on cpu; not used: cuda: Failed to load shared library',
        fields: { executionProvider: 'cpu', devices: ['cpu'], preference: ['cuda'], notUsed: { cuda: 'Failed to load shared library' } },
      },
    ]);
  });

  it('logs nothing of providers when its session runs on the cpu it was asked for', async () => {
    const logger = new RecordingLogger();
    const model = await new CpuExecutor().load({ modelPath, runtime: new CountingRuntime(), sessionOptions: {}, device: 'cpu', maxBatchSize: 8, logger });
    await model.release();
    expect(logger.lines).toEqual([]);
  });
});
