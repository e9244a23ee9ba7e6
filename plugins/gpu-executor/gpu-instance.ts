import {
  isSluiceError,
  runBatchOnModel,
  toModelInputDatatypes,
  type Batch,
  type ExecutionInstance,
  type InputAllocator,
  type JobResult,
  type LoadedModel,
} from '../../src/sdk/index.js';
import type { DeviceSlots } from './device-slots.js';
import { fp16OutputsToFp32 } from './fp16-conversion.js';
import type { InputBufferPool } from './input-buffer-pool.js';

/** What the instances placed on one device share. */
export interface DeviceSession {
  /** Where it runs, e.g. `cuda:1`. */
  readonly label: string;
  /** The one session of the model version on this device, warmed up. */
  readonly loaded: LoadedModel;
  /** Bounds the batches running on this device at once. */
  readonly slots: DeviceSlots;
  readonly buffers: InputBufferPool;
  /** Called when a run says the session is lost (`SLUICE_INSTANCE_FAILED`), so that the next instance opens a new one. */
  lost(): void;
}

/**
 * One execution slot on a device. A batch first waits for a device slot, then runs with its inputs
 * concatenated into buffers leased from the device's pool (FP32 inputs converted for FP16 model inputs,
 * by the session itself where it can do so off the event loop),
 * and gives the buffers and the slot back when the run is over. A session that hands out its own input
 * buffers (one on the session thread, where they move without a copy) gets its inputs in those instead.
 */
export class GpuInstance implements ExecutionInstance {
  readonly device: string;

  constructor(
    private readonly session: DeviceSession,
    private readonly fp16OutputsAsFp32: boolean,
  ) {
    this.device = session.label;
  }

  async run(batch: Batch): Promise<readonly JobResult[]> {
    const releaseSlot = await this.session.slots.acquire();
    const { loaded, buffers } = this.session;
    const lease = loaded.inputBuffer === undefined ? buffers.lease() : undefined;
    const allocate: InputAllocator =
      lease?.allocate ?? ((_name, datatype, length) => (datatype === 'BYTES' ? undefined : loaded.inputBuffer?.(datatype, length)));
    try {
      return await runBatchOnModel(this.converting(allocate), batch, allocate);
    } catch (error) {
      if (isSluiceError(error, 'SLUICE_INSTANCE_FAILED')) this.session.lost();
      throw error;
    } finally {
      lease?.release();
      releaseSlot();
    }
  }

  /** The instance holds nothing of its own: the session belongs to the device, for every instance on it. */
  release(): Promise<void> {
    return Promise.resolve();
  }

  /** The device's session with datatype conversion around its runs. */
  private converting(allocate: InputAllocator): LoadedModel {
    const loaded = this.session.loaded;
    const widen = this.fp16OutputsAsFp32;
    return {
      inputs: loaded.inputs,
      outputs: loaded.outputs,
      executionProvider: loaded.executionProvider,
      async run(inputs, outputNames) {
        const given = loaded.takesFp32ForFp16Inputs === true ? inputs : toModelInputDatatypes(inputs, loaded.inputs, allocate);
        const outputs = await loaded.run(given, outputNames);
        return widen ? fp16OutputsToFp32(outputs) : outputs;
      },
      release: () => Promise.resolve(),
    };
  }
}
