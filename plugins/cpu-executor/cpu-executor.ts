import { runBatchOnModel, type Batch, type ExecutionInstance, type Executor, type ExecutorLoadContext, type ExecutorModel, type LoadedModel } from '../../src/plugins/sdk/index.js';

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

/**
 * The default executor. Every instance of a version shares one ONNX Runtime session, so an extra instance
 * costs no extra copy of the weights; parallelism inside a run comes from ORT's intra-op threads.
 */
export class CpuExecutor implements Executor {
  readonly name = 'cpu';

  async load(context: ExecutorLoadContext): Promise<ExecutorModel> {
    return new SharedSessionModel(await context.runtime.load(context.modelPath, context.sessionOptions));
  }
}
