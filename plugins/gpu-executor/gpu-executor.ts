import { SluiceError, providerReport, type BatchingDefaults, type DeclaredBatching, type Executor, type ExecutorLoadContext, type TensorSpec } from '../../src/sdk/index.js';
import { gpuBatchingDefaults } from './batching-defaults.js';
import { executionDevices, resolveGpuIds } from './device-assignment.js';
import { GpuExecutorModel } from './gpu-executor-model.js';
import { DEFAULT_GPU_EXECUTION_PROVIDERS, parseGpuExecutorOptions, resolveGpuExecutorOptions, type GpuExecutorOptions } from './options.js';
import { visibleGpuCount } from './visible-gpus.js';
import { warmUpShapeProblems } from './warm-up-inputs.js';

/**
 * The GPU batching executor (`executor: gpu`): tries execution providers in order of preference, spreads
 * instances round-robin over the model's GPUs with one shared session per GPU, bounds the batches running
 * on each GPU, warms every session up with a batch of the largest size before it takes work, converts FP32
 * inputs for FP16 models, and reuses input buffers across batches.
 */
export class GpuExecutor implements Executor {
  readonly name = 'gpu';
  private readonly options: GpuExecutorOptions;

  /** `options` are the server-wide settings; checked here, so a bad value fails with `SLUICE_CONFIG_INVALID`. */
  constructor(options: GpuExecutorOptions = {}) {
    this.options = parseGpuExecutorOptions(options, 'gpu executor options');
  }

  /**
   * Creates the session for the model's first device (the provider it lands on is then used on every
   * device) and logs, once, which provider is active and why the preferred ones were not. A bad
   * `executorOptions` fails with `SLUICE_MANIFEST_INVALID` (`warmUpShapes` that do not fit the model's
   * inputs once its session is open, which is then freed); a model that cannot load, with
   * `SLUICE_MODEL_LOAD_FAILED`.
   */
  async load(context: ExecutorLoadContext): Promise<GpuExecutorModel> {
    const own = parseGpuExecutorOptions(context.executorOptions, `executorOptions of ${context.modelPath}`, 'SLUICE_MANIFEST_INVALID');
    const options = resolveGpuExecutorOptions(this.options, own);
    const preference = options.executionProviders ?? context.sessionOptions.executionProviders ?? DEFAULT_GPU_EXECUTION_PROVIDERS;
    const needsCount = context.device === 'gpu' && options.deviceIds === undefined;
    const gpuIds = resolveGpuIds(context.device, options.deviceIds, needsCount ? await visibleGpuCount() : 0);
    const first = await context.runtime.load(context.modelPath, {
      ...context.sessionOptions,
      executionProviders: preference,
      deviceId: gpuIds[0],
      dedicatedThread: options.sessionThread,
    });
    const problems = warmUpShapeProblems(first.inputs, options.warmUpShapes);
    if (problems.length > 0) {
      await first.release();
      throw new SluiceError('SLUICE_MANIFEST_INVALID', `executorOptions of ${context.modelPath}: \`warmUpShapes\`: ${problems.join('; ')}`, {
        modelPath: context.modelPath,
        problems,
      });
    }
    const devices = executionDevices(first.executionProvider, gpuIds);
    const report = providerReport(first, preference, devices.map((device) => device.label));
    context.logger[report.level](report.message, report.fields);
    return new GpuExecutorModel({ context, options, first, devices });
  }

  /** Larger batches than the CPU defaults: see {@link gpuBatchingDefaults}. */
  batchingDefaults(declared: DeclaredBatching, tensors: readonly TensorSpec[]): BatchingDefaults {
    return gpuBatchingDefaults(declared, tensors);
  }
}
