import { SluiceError } from '../../sdk/errors/index.js';
import { NUMERIC_DATATYPE_INFO, type NumericDatatype, type NumericTensorData, type Tensor, type TensorSpec } from '../../sdk/tensor/index.js';
import type { ExecutionProviderName, LoadedModel, RuntimeSessionOptions } from '../../sdk/runtime/model-runtime.js';
import type { ExecutionProviderSelection } from './execution-provider.js';
import { SessionThreadHost } from './session-thread-host.js';
import { sessionReleased } from './model-load-error.js';
import type { SessionThreadError, SessionThreadReply } from './session-thread-messages.js';
import { checkOrtTensorValues } from './tensor-conversion.js';

/** Bytes of returned input buffers a session keeps for later batches; past it they are left to the collector. */
const SPARE_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * Buffer sizes whose list of spares is kept while it is empty. A list that came and went with every run
 * would change the long-lived `Map` of them with every run, the kind of `Map` whose retired hash tables
 * chain into the old generation (see `ArrayBackedSet`); past this many sizes, the empty lists are dropped.
 */
const SPARE_SIZES = 64;

const asError = (error: SessionThreadError): SluiceError => new SluiceError(error.code, error.message, error.details);

/** The device whose session thread a session created with `options` lives on. */
export function sessionThreadDevice(options: RuntimeSessionOptions): number {
  return options.deviceId ?? 0;
}

/**
 * Input data as it is posted to the thread: a view into a larger buffer is cut to its own bytes first,
 * since posting a view copies its whole buffer.
 */
function postable(tensor: Tensor): Tensor {
  if (Array.isArray(tensor.data)) return tensor;
  const view = tensor.data as NumericTensorData;
  if (view.byteLength === view.buffer.byteLength) return tensor;
  return { ...tensor, data: view.slice() };
}

/**
 * A model whose ONNX Runtime session lives on its device's session thread (`session-thread.ts`): sessions
 * with the same `deviceId` share one thread, and each device has its own.
 * onnxruntime-node computes a run on the thread that calls it; here that is the session thread, so the
 * event loop keeps serving while a run computes (on a GPU, for most of the run's time), and runs on
 * different GPUs compute at the same time. Runs are answered
 * in the order they were asked. Input data is copied to the thread, except arrays from {@link inputBuffer},
 * which move there and back without a copy; outputs move back without a copy.
 */
export class ThreadedLoadedModel implements LoadedModel {
  readonly executionProvider: ExecutionProviderName;
  /** FP32 data for FP16 inputs is rounded to halves on the session thread, not on the event loop. */
  readonly takesFp32ForFp16Inputs = true;
  /** Buffers handed out by {@link inputBuffer} and not yet sent with a run. */
  private readonly handedOut = new WeakSet<ArrayBuffer>();
  /** Input buffers back from the thread, by byte length, for {@link inputBuffer}. */
  private readonly spare = new Map<number, ArrayBuffer[]>();
  private spareBytes = 0;
  private releasing: Promise<void> | undefined;
  private readonly afterRelease: (() => void)[] = [];

  private constructor(
    readonly modelPath: string,
    private readonly host: SessionThreadHost,
    private readonly session: number,
    readonly inputs: readonly TensorSpec[],
    readonly outputs: readonly TensorSpec[],
    readonly providerSelection: ExecutionProviderSelection,
    /** The session thread's `threadId`: sessions that report the same one take turns on one thread. */
    readonly threadId: number,
  ) {
    this.executionProvider = providerSelection.active;
  }

  /**
   * Creates the session on the session thread of `options.deviceId` (0 when absent), started from
   * `threadFile` if that device has none yet. Rejects with `SLUICE_MODEL_LOAD_FAILED` when the model
   * cannot load there.
   */
  static async start(threadFile: string, modelPath: string, options: RuntimeSessionOptions): Promise<ThreadedLoadedModel> {
    const host = SessionThreadHost.acquire(threadFile, sessionThreadDevice(options));
    host.opened();
    let reply: SessionThreadReply;
    try {
      reply = await host.request({ kind: 'load', modelPath, options: { ...options, dedicatedThread: false } });
    } catch (error) {
      host.closed();
      const reason = error instanceof Error ? error.message : String(error);
      throw new SluiceError('SLUICE_MODEL_LOAD_FAILED', `cannot load ${modelPath}: ${reason}`, { modelPath, reason }, { cause: error });
    }
    if (reply.kind === 'loaded') {
      return new ThreadedLoadedModel(modelPath, host, reply.session, reply.inputs, reply.outputs, reply.selection, reply.threadId);
    }
    host.closed();
    throw reply.kind === 'failed' ? asError(reply.error) : new Error(`the session thread answered a load with ${reply.kind}`);
  }

  /** Bytes of input buffers back from the thread and kept for later {@link inputBuffer} calls. */
  get spareInputBytes(): number {
    return this.spareBytes;
  }

  /**
   * An array for input data of one later {@link run}, which moves to the session thread without a copy.
   * Give it to exactly one run; afterwards it is unusable (its memory has moved away).
   */
  inputBuffer(datatype: NumericDatatype, length: number): NumericTensorData {
    const info = NUMERIC_DATATYPE_INFO[datatype];
    const bytes = length * info.bytes;
    const buffer = this.takeSpare(bytes) ?? new ArrayBuffer(bytes);
    this.handedOut.add(buffer);
    return new info.array(buffer, 0, length);
  }

  /** Refuses BYTES elements ONNX Runtime cannot take, before the request is queued. */
  checkInput(tensor: Tensor): void {
    checkOrtTensorValues(tensor);
  }

  /**
   * Runs the model on the session thread. Failures are the runtime's (`SLUICE_INFERENCE_FAILED`, …); a
   * released model throws `SLUICE_MODEL_UNLOADING`; a lost thread, `SLUICE_INSTANCE_FAILED`.
   */
  async run(inputs: readonly Tensor[], outputNames?: readonly string[]): Promise<Tensor[]> {
    if (this.releasing !== undefined) throw sessionReleased(this.modelPath);
    const moving: ArrayBuffer[] = [];
    const sent = inputs.map((tensor) => {
      const buffer = Array.isArray(tensor.data) ? undefined : (tensor.data as NumericTensorData).buffer;
      if (buffer instanceof ArrayBuffer && this.handedOut.delete(buffer)) {
        if (!moving.includes(buffer)) moving.push(buffer);
        return tensor;
      }
      return postable(tensor);
    });
    const names = outputNames ?? this.outputs.map((output) => output.name);
    const reply = await this.host.request({ kind: 'run', session: this.session, inputs: sent, outputNames: names, lent: moving }, moving);
    switch (reply.kind) {
      case 'ran':
        this.keep(reply.lent);
        return [...reply.outputs];
      case 'failed':
        this.keep(reply.lent);
        throw asError(reply.error);
      default:
        throw new Error(`the session thread answered a run with ${reply.kind}`);
    }
  }

  /** Refuses new runs, lets the runs already asked finish, then frees the session. Idempotent. */
  release(): Promise<void> {
    this.releasing ??= this.host
      .request({ kind: 'release', session: this.session })
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.host.closed();
        for (const released of this.afterRelease.splice(0)) released();
      });
    return this.releasing;
  }

  /** Calls `released` once the session has been freed. */
  whenReleased(released: () => void): void {
    this.afterRelease.push(released);
  }

  private takeSpare(bytes: number): ArrayBuffer | undefined {
    const list = this.spare.get(bytes);
    const buffer = list?.pop();
    if (list === undefined || buffer === undefined) return undefined;
    this.spareBytes -= bytes;
    return buffer;
  }

  private keep(buffers: readonly ArrayBuffer[]): void {
    for (const buffer of buffers) {
      if (this.spareBytes + buffer.byteLength > SPARE_INPUT_BYTES) return;
      let list = this.spare.get(buffer.byteLength);
      if (list === undefined) {
        if (this.spare.size >= SPARE_SIZES) for (const [bytes, kept] of this.spare) if (kept.length === 0) this.spare.delete(bytes);
        list = [];
        this.spare.set(buffer.byteLength, list);
      }
      list.push(buffer);
      this.spareBytes += buffer.byteLength;
    }
  }
}
