import { type InferenceSession, type Tensor as OrtTensor } from 'onnxruntime-node';
import { SluiceError, isSluiceError } from '../../sdk/errors/index.js';
import { type Tensor, type TensorSpec } from '../../sdk/tensor/index.js';
import { type ExecutionProviderName, type LoadedModel } from '../../sdk/runtime/model-runtime.js';
import { type ExecutionProviderSelection } from './execution-provider.js';
import { reasonOf, runModelFile, sessionReleased } from './model-load-error.js';
import { checkOrtTensorValues, ortTensorToSluice, sluiceTensorToOrt } from './tensor-conversion.js';

/**
 * An ONNX model loaded into an ORT inference session.
 *
 * onnxruntime-node runs a session synchronously on the calling thread, so concurrent `run` calls are
 * safe but take turns and block the event loop while each one computes.
 */
export class OnnxLoadedModel implements LoadedModel {
  readonly executionProvider: ExecutionProviderName;
  private session: InferenceSession | undefined;
  /**
   * Runs under way, counted rather than kept in a set: a set changed by every run replaces its hash table
   * every few runs, and V8 links each replaced table to the next, a chain that could keep finished runs
   * (and their tensors) alive through young collections (see the scheduler's running batches).
   */
  private inFlight = 0;
  /** Called when the last run under way finishes (`release` waits for it). */
  private readonly whenIdle: (() => void)[] = [];
  private readonly afterRelease: (() => void)[] = [];

  constructor(
    /** The model file the session was created from. */
    readonly modelPath: string,
    session: InferenceSession,
    readonly inputs: readonly TensorSpec[],
    readonly outputs: readonly TensorSpec[],
    /** The active provider and why preferred ones were passed over, for the caller to log. */
    readonly providerSelection: ExecutionProviderSelection,
  ) {
    this.session = session;
    this.executionProvider = providerSelection.active;
  }

  /** Refuses BYTES elements ONNX Runtime cannot take, before the request is queued. */
  checkInput(tensor: Tensor): void {
    checkOrtTensorValues(tensor);
  }

  /**
   * Runs the model. ORT failures throw `SLUICE_INFERENCE_FAILED` with ORT's reason; BYTES elements
   * ORT cannot take throw `SLUICE_TENSOR_INVALID_VALUE`; a released model throws
   * `SLUICE_MODEL_UNLOADING`.
   */
  async run(inputs: readonly Tensor[], outputNames?: readonly string[]): Promise<Tensor[]> {
    const session = this.session;
    if (session === undefined) throw sessionReleased(this.modelPath);
    const names = outputNames ?? this.outputs.map((output) => output.name);
    this.inFlight += 1;
    // One async layer over ORT's own run, not two: every layer is another promise and another turn of
    // the microtask queue for every request.
    try {
      const feeds = Object.fromEntries(inputs.map((tensor) => [tensor.name, sluiceTensorToOrt(tensor)]));
      const results = await session.run(feeds, names);
      return names.map((name) => ortTensorToSluice(name, results[name] as OrtTensor));
    } catch (error) {
      throw this.runFailure(error);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const idle of this.whenIdle.splice(0)) idle();
    }
  }

  /** Refuses new runs, waits for the ones in flight, then frees the session. Idempotent. */
  async release(): Promise<void> {
    const session = this.session;
    if (session === undefined) return;
    this.session = undefined;
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        this.whenIdle.push(resolve);
      });
    }
    try {
      await session.release();
    } finally {
      for (const released of this.afterRelease.splice(0)) released();
    }
  }

  /** Calls `released` once the session has been freed. */
  whenReleased(released: () => void): void {
    this.afterRelease.push(released);
  }

  /** What a failed run throws: a Sluice error as it is, anything else as ORT's reason. */
  private runFailure(error: unknown): SluiceError {
    if (isSluiceError(error)) return error;
    const reason = reasonOf(error);
    return new SluiceError(
      'SLUICE_INFERENCE_FAILED',
      `ONNX Runtime failed to run ${runModelFile(this.modelPath)}: ${reason}`,
      { modelPath: this.modelPath, reason },
      { cause: error },
    );
  }
}
