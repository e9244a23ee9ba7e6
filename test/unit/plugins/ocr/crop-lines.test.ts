import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { cropLinesHandler } from '../../../../plugins/ocr/index.js';
import { SluiceError, type Tensor } from '../../../../src/sdk/index.js';
import { ocrNodeContext } from '../../../support/ocr/ocr-chain.js';

/** A white 200 × 100 PNG: crops of it are white wherever they are taken. */
const whitePng = (): Promise<Buffer> =>
  sharp({ create: { width: 200, height: 100, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();

/** A [1, 1, 50, 100] probability map (half the image's size) with 0.9 inside each `[x0, y0, x1, y1]`. */
function probabilityMap(rects: readonly (readonly [number, number, number, number])[]): Tensor {
  const width = 100;
  const data = new Float32Array(width * 50);
  for (const [x0, y0, x1, y1] of rects) {
    for (let y = y0; y < y1; y++) data.fill(0.9, y * width + x0, y * width + x1);
  }
  return { name: 'sigmoid_0.tmp_0', datatype: 'FP32', shape: [1, 1, 50, width], data };
}

async function crop(probabilities: Tensor, config: Record<string, unknown> = { unclipRatio: 0 }): Promise<{ lines: Tensor[]; boxes: number[][] }> {
  const outputs = await cropLinesHandler.run({ image: await whitePng(), probabilities }, ocrNodeContext('crop', config));
  return { lines: outputs.lines as Tensor[], boxes: outputs.boxes as number[][] };
}

describe('ocr/crop-lines', () => {
  it('scales boxes from the probability map back to the original image', async () => {
    const { boxes } = await crop(probabilityMap([[10, 10, 60, 20]]));
    expect(boxes).toEqual([[20, 20, 120, 40]]);
  });

  it('grows boxes by the unclip ratio before scaling them', async () => {
    // 50 × 10 region: offset 500 × 1.5 / 120 = 6.25 map pixels, 12.5 image pixels
    const { boxes } = await crop(probabilityMap([[10, 10, 60, 20]]), {});
    expect(boxes).toEqual([[8, 8, 133, 53]]);
  });

  it('lists lines in reading order', async () => {
    const { boxes } = await crop(probabilityMap([[10, 30, 40, 40], [60, 5, 90, 15], [10, 5, 40, 15]]));
    expect(boxes).toEqual([
      [20, 10, 80, 30],
      [120, 10, 180, 30],
      [20, 60, 80, 80],
    ]);
  });

  it('gives every line of an image the same recogniser input shape', async () => {
    const { lines } = await crop(probabilityMap([[10, 10, 90, 20], [10, 30, 30, 40]]));
    expect(lines.map((line) => [line.name, line.datatype, line.shape])).toEqual([
      ['x', 'FP32', [1, 3, 48, 384]],
      ['x', 'FP32', [1, 3, 48, 384]],
    ]);
  });

  it('scales a line to height 48 and pads it on the right with zeros', async () => {
    // a 100 × 20 crop is 240 wide at height 48; the common width is the minimum, 320
    const { lines } = await crop(probabilityMap([[10, 10, 60, 20]]));
    const firstRow = Array.from((lines[0]!.data as Float32Array).subarray(0, 320));
    expect([firstRow.slice(0, 240).every((v) => v === 1), firstRow.slice(240).every((v) => v === 0)]).toEqual([true, true]);
  });

  it('follows the line width settings', async () => {
    const { lines } = await crop(probabilityMap([[10, 10, 60, 20]]), { unclipRatio: 0, minLineWidth: 640, maxLineWidth: 640 });
    expect(lines[0]!.shape).toEqual([1, 3, 48, 640]);
  });

  it('gives empty lists when the map holds no text', async () => {
    expect(await crop(probabilityMap([]))).toEqual({ lines: [], boxes: [] });
  });

  it('refuses an image over maxPixels from its header, naming its size and the setting', async () => {
    await expect(crop(probabilityMap([[10, 10, 60, 20]]), { maxPixels: 19_999 })).rejects.toThrow(
      new SluiceError('SLUICE_REQUEST_INVALID', 'ocr/crop-lines: input `image` is 200×100 = 20000 pixels, more than the limit of 19999 (setting `maxPixels`); send a smaller image'),
    );
  });

  it('refuses a probability map that is not [1, 1, H, W]', async () => {
    const map: Tensor = { name: 'p', datatype: 'FP32', shape: [1, 2, 2, 2], data: new Float32Array(8) };
    await expect(crop(map)).rejects.toMatchObject({ code: 'SLUICE_REQUEST_INVALID', details: { input: 'probabilities' } });
  });
});
