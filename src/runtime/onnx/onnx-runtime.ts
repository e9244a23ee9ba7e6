import { stat } from 'node:fs/promises';
import { type ModelRuntime, type RuntimeSessionOptions } from '../../sdk/runtime/model-runtime.js';
import { createSessionWithFallback } from './execution-provider.js';
import { modelLoadFailed, reasonOf } from './model-load-error.js';
import { readTensorSpecs } from './model-metadata.js';
import { OnnxLoadedModel } from './onnx-loaded-model.js';
import { keepOnnxRuntimeTelemetryOff } from './onnx-runtime-telemetry.js';
import { sessionThreadFile } from './session-thread-host.js';
import { sessionThreadDevice, ThreadedLoadedModel } from './threaded-loaded-model.js';
import { webGpuPlacement, type SessionPlace } from './webgpu-placement.js';

/**
 * Runs `.onnx` model files with ONNX Runtime (onnxruntime-node); manifests select it with `runtime: onnx`.
 * Made before any session exists, it keeps ONNX Runtime's usage telemetry off for the process unless
 * `ORT_DISABLE_TELEMETRY` is set (see {@link keepOnnxRuntimeTelemetryOff}).
 */
export class OnnxRuntime implements ModelRuntime {
  readonly name = 'onnx';

  constructor() {
    keepOnnxRuntimeTelemetryOff();
  }

  /**
   * Creates a session for `modelPath`, trying the execution providers in `options` in order and falling
   * back to `cpu`, and reads the model's inputs and outputs. Throws `SLUICE_MODEL_LOAD_FAILED` naming
   * the file and the reason when the file is missing, is not a model ONNX Runtime accepts, or has an
   * input or output Sluice cannot carry. With `dedicatedThread` the session is created on, and runs on,
   * the worker thread of its `deviceId` (one per device); where no compiled thread module exists
   * (TypeScript run directly), it stays on the calling thread. Every WebGPU session of the process must
   * compute on the same thread (see `webgpu-placement.ts`); one that would not is refused with
   * `SLUICE_MODEL_LOAD_FAILED`.
   */
  async load(modelPath: string, options: RuntimeSessionOptions = {}): Promise<OnnxLoadedModel | ThreadedLoadedModel> {
    const thread = options.dedicatedThread === true ? sessionThreadFile() : undefined;
    if (thread !== undefined) await assertRegularFile(modelPath);
    const loaded = thread === undefined ? await this.loadHere(modelPath, options) : await ThreadedLoadedModel.start(thread, modelPath, options);
    if (loaded.executionProvider !== 'webgpu') return loaded;
    try {
      const place: SessionPlace = thread === undefined ? 'the event loop' : `the session thread of device ${sessionThreadDevice(options)}`;
      loaded.whenReleased(webGpuPlacement.claim(place, modelPath));
    } catch (error) {
      await loaded.release();
      throw error;
    }
    return loaded;
  }

  /** {@link load} on the calling thread, whatever `dedicatedThread` says. */
  async loadHere(modelPath: string, options: RuntimeSessionOptions = {}): Promise<OnnxLoadedModel> {
    await assertRegularFile(modelPath);
    const { session, selection } = await createSessionWithFallback(modelPath, options);
    try {
      const inputs = readTensorSpecs(session.inputMetadata);
      const outputs = readTensorSpecs(session.outputMetadata);
      return new OnnxLoadedModel(modelPath, session, inputs, outputs, selection);
    } catch (error) {
      await session.release();
      throw modelLoadFailed(modelPath, reasonOf(error), {}, error);
    }
  }
}

async function assertRegularFile(modelPath: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(modelPath)).isFile();
  } catch (error) {
    throw modelLoadFailed(modelPath, reasonOf(error), {}, error);
  }
  if (!isFile) throw modelLoadFailed(modelPath, 'not a regular file');
}
