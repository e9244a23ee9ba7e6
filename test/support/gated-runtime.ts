import { SluiceError } from '../../src/sdk/errors/index.js';
import type { Tensor } from '../../src/sdk/tensor/index.js';
import type { LoadedModel, ModelRuntime, RuntimeSessionOptions } from '../../src/sdk/runtime/model-runtime.js';
import { OnnxRuntime } from '../../src/runtime/onnx/index.js';
import { Gate } from './gate.js';

/**
 * The real ONNX runtime with a hand-operated gate in front of `run` for chosen models, so tests can
 * hold a request "executing" as long as they need (queue full, timeouts, drains) without relying on
 * how long a model takes. The run itself is real once the gate opens.
 */
export class GatedRuntime implements ModelRuntime {
  readonly name = 'onnx';
  private readonly inner = new OnnxRuntime();
  private readonly gate = new Gate();
  private fatalRuns = 0;
  /** Rows (first dimension of the first input) of every gated run, in order. */
  readonly runRows: number[] = [];

  /** `gated(modelPath)` selects the models whose runs wait at the gate. */
  constructor(private readonly gated: (modelPath: string) => boolean) {}

  /** Runs started (reached the gate) so far. */
  get runsStarted(): number {
    return this.gate.arrived;
  }

  /** Closes the gate: later runs of gated models wait. */
  hold(): void {
    this.gate.hold();
  }

  /** Opens the gate and lets every waiting run through. */
  release(): void {
    this.gate.release();
  }

  /** Makes the next `count` gated runs fail fatally (`SLUICE_INSTANCE_FAILED`), as a broken device would. */
  failNextRuns(count: number): void {
    this.fatalRuns = count;
  }

  /** Resolves once at least `count` gated runs have started. */
  untilRunsStarted(count: number): Promise<void> {
    return this.gate.untilArrived(count);
  }

  async load(modelPath: string, options: RuntimeSessionOptions): Promise<LoadedModel> {
    const model = await this.inner.load(modelPath, options);
    if (!this.gated(modelPath)) return model;
    const run = async (inputs: readonly Tensor[], outputNames?: readonly string[]): Promise<Tensor[]> => {
      this.runRows.push(inputs[0]?.shape[0] ?? 0);
      await this.gate.pass();
      if (this.fatalRuns > 0) {
        this.fatalRuns -= 1;
        throw new SluiceError('SLUICE_INSTANCE_FAILED', 'the device of this instance stopped responding');
      }
      return model.run(inputs, outputNames);
    };
    return {
      inputs: model.inputs,
      outputs: model.outputs,
      executionProvider: model.executionProvider,
      run,
      release: () => model.release(),
    };
  }
}
