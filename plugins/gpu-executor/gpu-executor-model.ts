import {
  SluiceError,
  type Datatype,
  type ExecutionInstance,
  type ExecutionProviderName,
  type ExecutorLoadContext,
  type ExecutorModel,
  type LoadedModel,
  type Tensor,
  type TensorSpec,
} from '../../src/sdk/index.js';
import { deviceForInstance, type ExecutionDevice } from './device-assignment.js';
import { DeviceSlots } from './device-slots.js';
import { acceptsDatatype, answeredOutputSpecs } from './fp16-conversion.js';
import { GpuInstance, type DeviceSession } from './gpu-instance.js';
import { InputBufferPool } from './input-buffer-pool.js';
import type { ResolvedGpuExecutorOptions } from './options.js';
import { warmUpInputs } from './warm-up-inputs.js';

/** What a {@link GpuExecutorModel} is made from. */
export interface GpuExecutorModelParts {
  readonly context: ExecutorLoadContext;
  readonly options: ResolvedGpuExecutorOptions;
  /** The session created at load, on `devices[0]`; it decided the provider. */
  readonly first: LoadedModel;
  /** The devices instances are spread over, in round-robin order. */
  readonly devices: readonly ExecutionDevice[];
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
/** Bytes for a message: in bytes under 1 KiB, else in KiB, MiB or GiB with one decimal. */
function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [unit, size] = bytes >= 2 ** 30 ? ['GiB', 2 ** 30] : bytes >= 2 ** 20 ? ['MiB', 2 ** 20] : ['KiB', 1024];
  return `${(bytes / size).toFixed(1)} ${unit}`;
}

/** The warm-up inputs as a message shows them, with their size: a batch too large to run says so. */
function describeInputs(inputs: readonly Tensor[]): string {
  const bytes = inputs.reduce((sum, t) => sum + (ArrayBuffer.isView(t.data) ? t.data.byteLength : 0), 0);
  return `${inputs.map((t) => `${t.name} ${t.datatype}[${t.shape.join(',')}]`).join(', ')} (${byteSize(bytes)} of input)`;
}

/**
 * A model version on the GPU executor: one session per device, shared by the instances placed there,
 * created when the device gets its first instance and warmed up before that instance is handed out.
 */
export class GpuExecutorModel implements ExecutorModel {
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
  readonly executionProvider: ExecutionProviderName;
  /** Sessions by device label; the load's own session is there from the start. */
  private readonly sessions = new Map<string, LoadedModel>();
  /** Devices opened and warmed up, or being so, by label. */
  private readonly ready = new Map<string, Promise<DeviceSession>>();
  private released = false;

  constructor(private readonly parts: GpuExecutorModelParts) {
    this.inputs = parts.first.inputs;
    this.outputs = answeredOutputSpecs(parts.first.outputs, parts.options.fp16OutputsAsFp32);
    this.executionProvider = parts.first.executionProvider;
    const [home] = parts.devices;
    if (home !== undefined) this.sessions.set(home.label, parts.first);
  }

  /** Whether requests may send `datatype` for the input declared as `spec` (FP32 for FP16 inputs too). */
  acceptsDatatype(spec: Pick<TensorSpec, 'datatype'>, datatype: Datatype): boolean {
    return acceptsDatatype(spec, datatype);
  }

  /** Refuses values the sessions' runtime cannot take (every device's session is the same runtime's). */
  checkInput(tensor: Tensor): void {
    this.parts.first.checkInput?.(tensor);
  }

  /**
   * Instance `index` on device `index mod devices`. Resolves once that device's session exists and has
   * run its warm-up batch; a failed warm-up rejects with `SLUICE_MODEL_LOAD_FAILED` and is tried again by
   * the next call.
   */
  async createInstance(index: number): Promise<ExecutionInstance> {
    if (this.released) throw this.unloading();
    const device = deviceForInstance(index, this.parts.devices);
    return new GpuInstance(await this.deviceSession(device), this.parts.options.fp16OutputsAsFp32);
  }

  /** Waits for devices still being opened, then frees every session. Idempotent. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await Promise.allSettled(this.ready.values());
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((loaded) => loaded.release()));
  }

  private deviceSession(device: ExecutionDevice): Promise<DeviceSession> {
    const known = this.ready.get(device.label);
    if (known !== undefined) return known;
    const pending = this.prepare(device);
    this.ready.set(device.label, pending);
    pending.catch(() => {
      if (this.ready.get(device.label) === pending) this.ready.delete(device.label);
    });
    return pending;
  }

  private async prepare(device: ExecutionDevice): Promise<DeviceSession> {
    const loaded = this.sessions.get(device.label) ?? (await this.open(device));
    if (this.parts.options.warmUp) await this.warmUp(loaded, device);
    const { maxInFlightBatchesPerDevice, inputBufferPoolBytes } = this.parts.options;
    return {
      label: device.label,
      loaded,
      slots: new DeviceSlots(maxInFlightBatchesPerDevice),
      buffers: new InputBufferPool(inputBufferPoolBytes),
      lost: () => {
        this.forget(device, loaded);
      },
    };
  }

  /**
   * Drops a device's lost session (its thread died, say), so that the instance replacing the failed one
   * opens a new session there; instances still holding the lost one fail and are replaced in turn.
   */
  private forget(device: ExecutionDevice, loaded: LoadedModel): void {
    if (this.sessions.get(device.label) !== loaded) return;
    this.sessions.delete(device.label);
    this.ready.delete(device.label);
    void loaded.release().catch(() => undefined);
  }

  /** A session on another device, on the provider the load settled on, or a load failure saying why not. */
  private async open(device: ExecutionDevice): Promise<LoadedModel> {
    const { context } = this.parts;
    const provider = this.executionProvider;
    const loaded = await context.runtime.load(context.modelPath, {
      ...context.sessionOptions,
      executionProviders: [provider],
      deviceId: device.deviceId,
      dedicatedThread: this.parts.options.sessionThread,
    });
    if (loaded.executionProvider !== provider) {
      await loaded.release();
      const reason = loaded.providerSelection?.rejected.find((r) => r.provider === provider)?.reason ?? 'no reason reported by the runtime';
      throw new SluiceError(
        'SLUICE_MODEL_LOAD_FAILED',
        `cannot load ${context.modelPath} on ${device.label}: ${provider} did not start there (${reason})`,
        { modelPath: context.modelPath, device: device.label, reason },
      );
    }
    this.sessions.set(device.label, loaded);
    return loaded;
  }

  private async warmUp(loaded: LoadedModel, device: ExecutionDevice): Promise<void> {
    const { context, options } = this.parts;
    let inputs: Tensor[] = [];
    try {
      inputs = warmUpInputs(loaded.inputs, context.maxBatchSize, options.warmUpShapes);
      await loaded.run(inputs);
    } catch (error) {
      const fed = inputs.length > 0 ? ` with ${describeInputs(inputs)}` : '';
      throw new SluiceError(
        'SLUICE_MODEL_LOAD_FAILED',
        `warm-up of ${context.modelPath} on ${device.label} failed${fed}: ${reasonOf(error)} (if the model cannot take zeros of these shapes, give shapes it can take in executorOptions.warmUpShapes, or set warmUp: false)`,
        { modelPath: context.modelPath, device: device.label, reason: reasonOf(error) },
        { cause: error },
      );
    }
  }

  private unloading(): SluiceError {
    return new SluiceError('SLUICE_MODEL_UNLOADING', `${this.parts.context.modelPath} has been released; it takes no new instances`, {
      modelPath: this.parts.context.modelPath,
    });
  }
}
