import { join } from 'node:path';
import { packageRoot } from '../src/package-files/package-root.js';
import { isEntryScript, writeGeneratedFiles } from './generated-files.js';
import { renderTextPng } from './text-page-png.js';

/** The lines of the sample page, which the `ocr` workflow reads back exactly. */
export const OCR_SAMPLE_LINES = ['Sluice serves ONNX models', 'Batches form under load', 'Workflow ocr 1.0 reads this page'] as const;

/** Where the sample page is committed, relative to the package root. */
export const OCR_SAMPLE_PAGE = 'examples/ocr/page.png';

/** The sample page: {@link OCR_SAMPLE_LINES} in 32-pixel type, four grey levels (about 4 KB). */
export function renderOcrSamplePage(): Promise<Buffer> {
  return renderTextPng(OCR_SAMPLE_LINES, { fontSize: 32, width: 600, compact: true });
}

// `npm run build && node dist/scripts/ocr-sample-page.js` writes examples/ocr/page.png again. The pixels
// depend on the fonts fontconfig finds, so a page made elsewhere may differ in its bytes, not in what it reads.
if (isEntryScript(import.meta.url)) {
  renderOcrSamplePage()
    .then((png) => writeGeneratedFiles(packageRoot(), [[OCR_SAMPLE_PAGE, png]]))
    .then(
      ([path]) => {
        console.log(`wrote ${path ?? join(packageRoot(), OCR_SAMPLE_PAGE)}`);
      },
      (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      },
    );
}
