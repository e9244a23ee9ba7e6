import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OCR_SAMPLE_LINES, OCR_SAMPLE_PAGE, renderOcrSamplePage } from '../../../scripts/ocr-sample-page.js';
import { packageRoot } from '../../../src/package-files/package-root.js';
import { loadOcrModels, readText, type OcrModels } from '../../support/ocr/ocr-chain.js';

describe('the OCR sample page', () => {
  let models: OcrModels;
  beforeAll(async () => {
    models = await loadOcrModels();
  });
  afterAll(() => models.release());

  it('renders into a page the OCR chain reads back line for line', async () => {
    expect((await readText(models, await renderOcrSamplePage())).lines).toEqual(OCR_SAMPLE_LINES);
  });

  it('is committed as a file of a few kilobytes', () => {
    expect(statSync(join(packageRoot(), OCR_SAMPLE_PAGE)).size).toBeLessThan(8 * 1024);
  });
});
