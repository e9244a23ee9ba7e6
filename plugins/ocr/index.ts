import { definePlugin, type NodeHandler } from '../../src/sdk/index.js';
import { cropLinesHandler } from './crop-lines.js';
import { ctcDecodeHandler } from './ctc-decode.js';
import { detectPreprocessHandler } from './detect-preprocess.js';

export { cropLinesHandler } from './crop-lines.js';
export { cropLinesOptions, type CropLinesOptions } from './crop-lines-options.js';
export { ctcDecodeHandler } from './ctc-decode.js';
export { detectPreprocessHandler, type DetectorScale } from './detect-preprocess.js';
export { ocrModelFiles, type OcrModelFiles } from './model-files.js';
export type { Box } from './regions/box.js';

/** The OCR workflow node handlers: `ocr/detect-preprocess`, `ocr/crop-lines`, `ocr/ctc-decode`. */
export const ocrHandlers: readonly NodeHandler[] = [detectPreprocessHandler, cropLinesHandler, ctcDecodeHandler];

/** The plugin object: registers the OCR node handlers. */
export default definePlugin({
  register(context) {
    for (const handler of ocrHandlers) context.nodeHandler(handler);
  },
});
