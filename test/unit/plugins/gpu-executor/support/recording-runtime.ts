import {
  NUMERIC_DATATYPE_INFO,
  SluiceError,
  toModelInputDatatypes,
  type ExecutionProviderName,
  type LoadedModel,
  type ModelRuntime,
  type NumericTensorData,
  type RuntimeSessionOptions,
  type Tensor,
} from '../../../../../src/sdk/index.js';
import { OnnxRuntime } from '../../../../../src/runtime/onnx/index.js';

/** One `run` a {@link RecordingRuntime} saw. */
export interface RecordedRun {
  /** Index of the load (session) it ran on. */
  readonly session: number;
  readonly inputs: readonly Tensor[];
}

/**
 * The real ONNX runtime, recording every load and run, with a hand-operated gate that can hold runs
 * before they reach the session. The runs themselves are real.
 *
 * `claimProvider` makes sessions report a provider instead of the one they really run on (for the load
 * options it is given; `undefined` keeps the real one): a GPU cannot run here, so tests of what happens on
 * GPUs (one session per device) run on the CPU under a GPU's name.
 */
export class RecordingRuntime implements ModelRuntime {
  readonly name = 'onnx';
  readonly loads: RuntimeSessionOptions[] = [];
  readonly runs: RecordedRun[] = [];
  /** Sessions released so far. */
  released = 0;
  /** Whether sessions hand out input buffers (`inputBuffer`), as sessions on the session thread do. */
  handsOutInputBuffers = false;
  /** Whether sessions take FP32 data for FP16 inputs and round it themselves, as sessions on the session thread do. */
  convertsFp16Inputs = false;
  /** The arrays sessions handed out through `inputBuffer`, in order. */
  readonly handedOut: NumericTensorData[] = [];
  /** Whether the next run finds its session lost, as when a session thread dies. */
  private losing = false;
  private readonly inner = new OnnxRuntime();
  private held = false;
  private waiting: (() => void)[] = [];
  private runListeners: (() => void)[] = [];

  constructor(private readonly claimProvider: (options: RuntimeSessionOptions) => ExecutionProviderName | undefined = () => undefined) {}

  /** Runs that reached a session so far (held ones included). */
  get runsStarted(): number {
    return this.runs.length;
  }

  /** Later runs wait at the gate until {@link open}. */
  hold(): void {
    this.held = true;
  }

  /** Lets every waiting run through and stops holding new ones. */
  open(): void {
    this.held = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** The next run fails with `SLUICE_INSTANCE_FAILED`, as a run on a session thread that died does. */
  loseNextRun(): void {
    this.losing = true;
  }

  /** Resolves once at least `count` runs have started. */
  async untilRunsStarted(count: number): Promise<void> {
    while (this.runs.length < count) await new Promise<void>((resolve) => this.runListeners.push(resolve));
  }

  async load(modelPath: string, options: RuntimeSessionOptions): Promise<LoadedModel> {
    const session = this.loads.length;
    this.loads.push(options);
    // Always on this thread, whatever `dedicatedThread` asks: the recorded runs must be this thread's objects.
    const model = await this.inner.loadHere(modelPath, options);
    const claimed = this.claimProvider(options);
    const provider = claimed ?? model.executionProvider;
    return {
      inputs: model.inputs,
      outputs: model.outputs,
      executionProvider: provider,
      providerSelection: claimed === undefined ? model.providerSelection : { active: claimed, rejected: [] },
      checkInput: (tensor) => {
        model.checkInput(tensor);
      },
      run: async (inputs, outputNames) => {
        this.runs.push({ session, inputs });
        const listeners = this.runListeners;
        this.runListeners = [];
        for (const listener of listeners) listener();
        if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
        if (this.losing) {
          this.losing = false;
          throw new SluiceError('SLUICE_INSTANCE_FAILED', `the session for ${modelPath} is lost`);
        }
        return model.run(this.convertsFp16Inputs ? toModelInputDatatypes(inputs, model.inputs) : inputs, outputNames);
      },
      release: () => {
        this.released += 1;
        return model.release();
      },
      ...(this.convertsFp16Inputs ? { takesFp32ForFp16Inputs: true } : {}),
      ...(this.handsOutInputBuffers
        ? {
            inputBuffer: (datatype, length) => {
              const array = new NUMERIC_DATATYPE_INFO[datatype].array(length);
              this.handedOut.push(array);
              return array;
            },
          }
        : {}),
    };
  }
}
