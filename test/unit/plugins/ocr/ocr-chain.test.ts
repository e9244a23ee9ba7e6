import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { cropLinesHandler, ctcDecodeHandler, detectPreprocessHandler } from '../../../../plugins/ocr/index.js';
import type { Tensor } from '../../../../src/sdk/index.js';
import { loadOcrModels, ocrNodeContext, readText, type OcrModels } from '../../../support/ocr/ocr-chain.js';
import { renderTextPng } from '../../../support/ocr/text-image.js';

let models: OcrModels;

beforeAll(async () => {
  models = await loadOcrModels();
});
afterAll(() => models.release());

/** The bounds `[x0, y0, x1, y1]` (pixel edges) of the dark pixels of an image. */
async function inkBounds(png: Uint8Array): Promise<number[]> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const bounds = [info.width, info.height, 0, 0];
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      if (data[y * info.width + x]! >= 128) continue;
      bounds[0] = Math.min(bounds[0]!, x);
      bounds[1] = Math.min(bounds[1]!, y);
      bounds[2] = Math.max(bounds[2]!, x + 1);
      bounds[3] = Math.max(bounds[3]!, y + 1);
    }
  }
  return bounds;
}

describe('the OCR handlers with the PP-OCRv4 models', () => {
  it('read one line of text', async () => {
    const result = await readText(models, await renderTextPng(['HELLO 2024']));
    expect(result.text).toBe('HELLO 2024');
  });

  it('read two lines of text from top to bottom', async () => {
    const result = await readText(models, await renderTextPng(['HELLO 2024', 'Sluice reads text']));
    expect(result.lines).toEqual(['HELLO 2024', 'Sluice reads text']);
  });

  it('join the lines with newlines', async () => {
    const result = await readText(models, await renderTextPng(['HELLO 2024', 'Sluice reads text']));
    expect(result.text).toBe('HELLO 2024\nSluice reads text');
  });

  it('read words far apart on one row from left to right before the row below', async () => {
    const result = await readText(models, await renderTextPng(['LEFT                    RIGHT', 'below']));
    expect(result.lines).toEqual(['LEFT', 'RIGHT', 'below']);
  });

  it('read a JPEG', async () => {
    const jpeg = await sharp(await renderTextPng(['HELLO 2024'])).jpeg({ quality: 80 }).toBuffer();
    expect((await readText(models, jpeg)).text).toBe('HELLO 2024');
  });

  it('read an image the detector input is scaled down for', async () => {
    const large = await renderTextPng(['HELLO 2024'], { fontSize: 200, width: 2400 });
    expect((await readText(models, large)).text).toBe('HELLO 2024');
  });

  it('box a line at its ink, in original image pixels, to within a tenth of the text height', async () => {
    const large = await renderTextPng(['HELLO 2024'], { fontSize: 200, width: 2400 });
    const ink = await inkBounds(large);
    const [box] = (await readText(models, large)).boxes;
    const tolerance = (ink[3]! - ink[1]!) / 10;
    expect(box!.map((edge, i) => Math.abs(edge - ink[i]!) <= tolerance)).toEqual([true, true, true, true]);
  });

  it('find nothing in a blank image', async () => {
    const blank = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(await readText(models, blank)).toEqual({ lines: [], text: '', boxes: [] });
  });

  it('decode lines recognised one run each, as a list, like lines recognised in one batch', async () => {
    const image = await renderTextPng(['HELLO 2024', 'Sluice reads text']);
    const prepared = await detectPreprocessHandler.run({ image }, ocrNodeContext('detect-preprocess'));
    const [probabilities] = await models.detector.run([prepared.x as Tensor]);
    const cropped = await cropLinesHandler.run({ image, probabilities }, ocrNodeContext('crop-lines'));
    const perLine = await Promise.all((cropped.lines as Tensor[]).map(async (line) => (await models.recognizer.run([line]))[0]));
    const decoded = await ctcDecodeHandler.run({ probabilities: perLine }, ocrNodeContext('ctc-decode'));
    expect(decoded.lines).toEqual(['HELLO 2024', 'Sluice reads text']);
  });
});
