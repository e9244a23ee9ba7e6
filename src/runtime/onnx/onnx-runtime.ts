import { stat } from 'node:fs/promises';
import { type ModelRuntime, type RuntimeSessionOptions } from '../model-runtime.js';
import { createSessionWithFallback } from './execution-provider.js';
import { modelLoadFailed, reasonOf } from './model-load-error.js';
import { readTensorSpecs } from './model-metadata.js';
import { OnnxLoadedModel } from './onnx-loaded-model.js';

/** Runs `.onnx` model files with ONNX Runtime (onnxruntime-node); manifests select it with `runtime: onnx`. */
export class OnnxRuntime implements ModelRuntime {
  readonly name = 'onnx';

  /**
   * Creates a session for `modelPath`, trying the execution providers in `options` in order and falling
   * back to `cpu`, and reads the model's inputs and outputs. Throws `SLUICE_MODEL_LOAD_FAILED` naming
   * the file and the reason when the file is missing, is not a model ONNX Runtime accepts, or has an
   * input or output Sluice cannot carry.
   */
  async load(modelPath: string, options: RuntimeSessionOptions = {}): Promise<OnnxLoadedModel> {
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
