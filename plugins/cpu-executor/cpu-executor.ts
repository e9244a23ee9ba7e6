import { SluiceError, providerReport, runBatchOnModel, type Batch, type ExecutionInstance, type Executor, type ExecutorLoadContext, type ExecutorModel, type LoadedModel, type Tensor } from '../../src/sdk/index.js';

/** Instances of one version on the CPU: slots over one shared session (ORT allows concurrent runs). */
class SharedSessionModel implements ExecutorModel {
  readonly inputs;
  readonly outputs;
  readonly executionProvider;

  constructor(private readonly loaded: LoadedModel) {
    this.inputs = loaded.inputs;
    this.outputs = loaded.outputs;
    this.executionProvider = loaded.executionProvider;
  }

  checkInput(tensor: Tensor): void {
    this.loaded.checkInput?.(tensor);
  }

  createInstance(): Promise<ExecutionInstance> {
    const loaded = this.loaded;
    return Promise.resolve({
      device: loaded.executionProvider,
      run: (batch: Batch) => runBatchOnModel(loaded, batch),
      release: () => Promise.resolve(),
    });
  }

  release(): Promise<void> {
    return this.loaded.release();
  }
}

function refuseOptions(context: ExecutorLoadContext): void {
  const options = context.executorOptions;
  const keys = typeof options === 'object' && options !== null && !Array.isArray(options) ? Object.keys(options) : undefined;
  if (options === undefined || keys?.length === 0) return;
  const given = keys === undefined ? 'a value that is not a mapping' : keys.map((key) => `\`${key}\``).join(', ');
  throw new SluiceError(
    'SLUICE_MANIFEST_INVALID',
    `executorOptions of ${context.modelPath}: the cpu executor takes no options (got ${given}); remove executorOptions, or name the executor they are meant for (executor: gpu, say)`,
    { modelPath: context.modelPath },
  );
}

/**
 * The default executor. Every instance of a version shares one ONNX Runtime session, so an extra instance
 * costs no extra copy of the weights; parallelism inside a run comes from ORT's intra-op threads.
 */
export class CpuExecutor implements Executor {
  readonly name = 'cpu';

  /**
   * Loads the model's one session. The CPU executor has no options of its own, so a manifest that gives
   * `executorOptions` (meant for another executor, most likely `gpu`) is refused with
   * `SLUICE_MANIFEST_INVALID` rather than ignored. When the session options prefer a provider that could
   * not start, it warns with the runtime's reasons.
   */
  async load(context: ExecutorLoadContext): Promise<ExecutorModel> {
    refuseOptions(context);
    const loaded = await context.runtime.load(context.modelPath, context.sessionOptions);
    // Only a manifest or server that asks for an accelerator can be passed over: say so, and why.
    const report = providerReport(loaded, context.sessionOptions.executionProviders ?? ['cpu'], [loaded.executionProvider]);
    if (report.level === 'warn') context.logger.warn(report.message, report.fields);
    return new SharedSessionModel(loaded);
  }
}
