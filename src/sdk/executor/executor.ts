import type { SluiceError } from '../errors/index.js';
import type { Logger } from '../logging/logger.js';
import type { Tensor, TensorSpec } from '../tensor/index.js';
import type { ExecutionProviderName, ModelRuntime, RuntimeSessionOptions } from '../runtime/model-runtime.js';

/** One request's share of a batch: its validated inputs and how many rows (first dimension) it brings. */
export interface BatchItem {
  readonly inputs: readonly Tensor[];
  readonly rows: number;
}

/**
 * Requests that run together. Every item has the same input names, datatypes and non-batch dimensions,
 * and asks for the same outputs, so their inputs concatenate along the first dimension.
 */
export interface Batch {
  readonly items: readonly BatchItem[];
  /** Outputs to compute, in answer order; all of the model's outputs when omitted. */
  readonly outputNames?: readonly string[];
}

/** The result of one item of a batch: its outputs or its own error. */
export type JobResult = { readonly ok: true; readonly outputs: readonly Tensor[] } | { readonly ok: false; readonly error: SluiceError };

/** What an executor is given to load one model version. */
export interface ExecutorLoadContext {
  readonly modelPath: string;
  /** The model runtime (ONNX Runtime) executors load sessions with. */
  readonly runtime: ModelRuntime;
  /** Session options merged from the server's `runtime` settings and the manifest's `runtimeOptions`. */
  readonly sessionOptions: RuntimeSessionOptions;
  /** The manifest's `device`: `cpu`, `gpu` or `gpu:<n>`. */
  readonly device: string;
  /** The largest batch the scheduler will hand to an instance (for warm-up and buffers). */
  readonly maxBatchSize: number;
  /** The manifest's `executorOptions`, unchecked: each executor validates its own. */
  readonly executorOptions?: unknown;
  readonly logger: Logger;
}

/** One execution slot of a model version, placed on a device. */
export interface ExecutionInstance {
  /** Where it runs, e.g. `cpu`, `cuda:0`, `webgpu:1`. */
  readonly device: string;
  /**
   * Runs a batch; resolves with exactly one result per item, in order. Rejects only when the instance can
   * no longer run anything (a fatal error): the scheduler then replaces it.
   */
  run(batch: Batch): Promise<readonly JobResult[]>;
  /** Frees what only this instance holds. Idempotent. */
  release(): Promise<void>;
}

/** Batching keys as a manifest declares them; absent keys are the ones an executor may fill in. */
export interface DeclaredBatching {
  readonly maxBatchSize?: number;
  readonly maxBatchDelayMs?: number;
  readonly preferredBatchSizes?: readonly number[];
}

/** Batching settings with every key filled in. */
export interface BatchingDefaults {
  readonly maxBatchSize: number;
  readonly maxBatchDelayMs: number;
  readonly preferredBatchSizes: readonly number[];
}

/** A model version loaded by an executor, ready to create instances. */
export interface ExecutorModel {
  /** Inputs and outputs as the model file declares them (`-1` for variable dimensions). */
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
  /** The execution provider actually in use. */
  readonly executionProvider: ExecutionProviderName;
  /**
   * Creates instance number `index` (0-based, reused when an instance is replaced). Resolves when the
   * instance can take work: an executor that warms up resolves after warm-up.
   */
  createInstance(index: number): Promise<ExecutionInstance>;
  /** Frees everything the model holds, after its instances were released. Idempotent. */
  release(): Promise<void>;
  /**
   * Whether requests may send `datatype` for an input declared as `spec` (e.g. FP32 for an FP16 input the
   * executor converts). Without it, the request's datatype must equal the declared one.
   */
  acceptsDatatype?(spec: Pick<TensorSpec, 'datatype'>, datatype: TensorSpec['datatype']): boolean;
  /**
   * Throws `SLUICE_TENSOR_INVALID_VALUE` when `tensor` holds values the executor's runtime cannot take
   * (see `LoadedModel.checkInput`); called for every request before it is queued.
   */
  checkInput?(tensor: Tensor): void;
}

/**
 * Runs batches of validated requests on a device: the extension point for execution. The CPU executor is
 * the default; the GPU batching executor plugin implements the same interface.
 */
export interface Executor {
  /** Name used in model manifests (`executor: cpu`) and logs. */
  readonly name: string;
  /** Loads a model version for this executor's devices. */
  load(context: ExecutorLoadContext): Promise<ExecutorModel>;
  /** Batching for what the manifest leaves out (e.g. larger batches on GPUs); the server's defaults otherwise. */
  batchingDefaults?(declared: DeclaredBatching, tensors: readonly TensorSpec[]): BatchingDefaults;
}
