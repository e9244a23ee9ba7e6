/** Text rendered into PNG pages for the OCR tests: the renderer the sample page of `examples/ocr/` is made with. */
export { renderTextPng, type TextImageOptions } from '../../../scripts/text-page-png.js';
