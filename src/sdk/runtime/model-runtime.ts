import type { NumericDatatype, NumericTensorData, Tensor, TensorSpec } from '../tensor/index.js';

/** Graph optimisation levels, from none to all (ORT's names). */
export type GraphOptimizationLevel = 'disabled' | 'basic' | 'extended' | 'all';

/** Execution providers Sluice knows how to ask for; `cpu` is always available. */
export type ExecutionProviderName = 'cpu' | 'cuda' | 'webgpu';

/**
 * When the runtime's intra-op threads busy-wait for work instead of sleeping: `during-run` while a run is
 * under way (between its operators) and not between runs; `always` also between runs (the runtime's own
 * default, which keeps a core busy even when requests only trickle in); `never`.
 */
export type IntraOpSpinning = 'during-run' | 'always' | 'never';

/** How a session is created. Every field is optional; the runtime documents its defaults. */
export interface RuntimeSessionOptions {
  /** Threads used inside one operator (0 = one per physical core the process may use). */
  readonly intraOpNumThreads?: number;
  /** Whether those threads busy-wait for work, and when. */
  readonly intraOpSpinning?: IntraOpSpinning;
  /** Threads used across independent operators when `executionMode` is `parallel`. */
  readonly interOpNumThreads?: number;
  readonly executionMode?: 'sequential' | 'parallel';
  readonly graphOptimizationLevel?: GraphOptimizationLevel;
  /** Preference list; the first provider that initialises wins, `cpu` is the last resort. */
  readonly executionProviders?: readonly ExecutionProviderName[];
  /** Device id for GPU providers. */
  readonly deviceId?: number;
  /**
   * Whether the session lives on a worker thread (one per {@link deviceId}, shared by that device's
   * sessions), so the event loop keeps serving while a run computes and different GPUs compute at once.
   * Worth it when runs take long and the process has cores to spare (a GPU session); on a busy CPU it only
   * adds a hand-over per run.
   */
  readonly dedicatedThread?: boolean;
}

/** A provider that was tried and could not create the session. */
export interface RejectedExecutionProvider {
  readonly provider: ExecutionProviderName;
  /** The runtime's reason, e.g. a missing CUDA library or no WebGPU adapter. */
  readonly reason: string;
}

/** Which provider a session ended up on, and why the ones before it were passed over; meant for logs. */
export interface ExecutionProviderSelection {
  readonly active: ExecutionProviderName;
  /** Providers tried before {@link active}, in preference order. */
  readonly rejected: readonly RejectedExecutionProvider[];
}

/** A model file loaded into a runtime session, ready to run. Safe to call `run` concurrently. */
export interface LoadedModel {
  /** Inputs as the model file declares them (`-1` for symbolic or unknown dimensions). */
  readonly inputs: readonly TensorSpec[];
  /** Outputs as the model file declares them. */
  readonly outputs: readonly TensorSpec[];
  /** The execution provider that is actually in use. */
  readonly executionProvider: ExecutionProviderName;
  /** How {@link executionProvider} was chosen, when the runtime tells (ONNX Runtime does). */
  readonly providerSelection?: ExecutionProviderSelection;
  /**
   * An array for the input data of one later {@link run} that the session can take without a copy (a
   * session on a thread of its own moves it there). Give it to exactly one run; afterwards it is unusable.
   * Sessions without it take any typed array.
   */
  inputBuffer?(datatype: NumericDatatype, length: number): NumericTensorData;
  /**
   * True when {@link run} takes FP32 data for an FP16 input and rounds it to halves itself, where the run
   * computes (a session on a thread of its own does it there, off the event loop). Without it, callers
   * convert such data before the run.
   */
  readonly takesFp32ForFp16Inputs?: boolean;
  /**
   * Throws `SLUICE_TENSOR_INVALID_VALUE` when `tensor` (already checked against its spec) holds values
   * this runtime cannot take, such as ONNX Runtime's BYTES elements that are not UTF-8. Called for every
   * request before it is queued, so a request whose run would fail never joins a batch. Without it, any
   * value is taken.
   */
  checkInput?(tensor: Tensor): void;
  /**
   * Runs the model. Inputs must already be validated against {@link inputs}; `outputNames` selects
   * outputs (all when omitted). Results come back in the order of `outputNames` (or {@link outputs}).
   */
  run(inputs: readonly Tensor[], outputNames?: readonly string[]): Promise<Tensor[]>;
  /** Frees the session. Idempotent. */
  release(): Promise<void>;
}

/** A model runtime (ONNX Runtime today); the only thing that knows how model files are executed. */
export interface ModelRuntime {
  /** The manifest's `runtime` value this implementation serves. */
  readonly name: string;
  /** Loads a model file. Throws `SluiceError` `SLUICE_MODEL_LOAD_FAILED` with the runtime's reason. */
  load(modelPath: string, options: RuntimeSessionOptions): Promise<LoadedModel>;
}
