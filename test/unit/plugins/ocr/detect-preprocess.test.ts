import { describe, expect, it } from '@jest/globals';
import sharp from 'sharp';
import { detectPreprocessHandler } from '../../../../plugins/ocr/index.js';
import { SluiceError, type Tensor } from '../../../../src/sdk/index.js';
import { ocrNodeContext } from '../../../support/ocr/ocr-chain.js';

function solidPng(width: number, height: number, rgb: readonly [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

async function preprocess(image: unknown, config: Record<string, unknown> = {}): Promise<{ x: Tensor; scale: unknown }> {
  const outputs = await detectPreprocessHandler.run({ image }, ocrNodeContext('detect', config));
  return { x: outputs.x as Tensor, scale: outputs.scale };
}

describe('ocr/detect-preprocess', () => {
  it('makes an FP32 [1, 3, H, W] tensor named x with sides rounded to multiples of 32', async () => {
    const { x } = await preprocess(await solidPng(900, 179, [255, 255, 255]));
    expect([x.name, x.datatype, x.shape, x.data.length]).toEqual(['x', 'FP32', [1, 3, 192, 896], 3 * 192 * 896]);
  });

  it('reports the scale from the original image to the tensor per axis', async () => {
    const { scale } = await preprocess(await solidPng(900, 179, [255, 255, 255]));
    expect(scale).toEqual({ x: 896 / 900, y: 192 / 179 });
  });

  it('puts blue, green and red planes in that order, each normalised with its mean and deviation', async () => {
    const { x } = await preprocess(await solidPng(64, 32, [255, 0, 0]));
    const plane = 64 * 32;
    const firstOfEachPlane = [x.data[0], x.data[plane], x.data[2 * plane]] as number[];
    expect(firstOfEachPlane).toEqual([
      expect.closeTo((0 - 0.485) / 0.229, 5),
      expect.closeTo((0 - 0.456) / 0.224, 5),
      expect.closeTo((1 - 0.406) / 0.225, 5),
    ]);
  });

  it('scales large images down to the maxSide setting', async () => {
    const { x } = await preprocess(await solidPng(2000, 500, [255, 255, 255]), { maxSide: 640 });
    expect(x.shape).toEqual([1, 3, 160, 640]);
  });

  it('reads an image from a BYTES tensor of one element', async () => {
    const bytes = await solidPng(64, 32, [255, 255, 255]);
    const { x } = await preprocess({ name: 'image', datatype: 'BYTES', shape: [1], data: [bytes] });
    expect(x.shape).toEqual([1, 3, 32, 64]);
  });

  it('refuses bytes that are not an image', async () => {
    await expect(preprocess(new TextEncoder().encode('not an image'))).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_INVALID',
      details: { handler: 'ocr/detect-preprocess', input: 'image' },
    });
  });

  it('refuses an image over maxPixels from its header, naming its size and the setting', async () => {
    await expect(preprocess(await solidPng(200, 100, [255, 255, 255]), { maxPixels: 19_999 })).rejects.toThrow(
      new SluiceError('SLUICE_REQUEST_INVALID', 'ocr/detect-preprocess: input `image` is 200×100 = 20000 pixels, more than the limit of 19999 (setting `maxPixels`); send a smaller image'),
    );
  });

  it('refuses an image over 40 000 000 pixels by default, before decoding it', async () => {
    // A PNG of a few hundred kilobytes that declares 12 000 × 12 000 pixels: 432 MB once decoded.
    const bomb = await sharp({ create: { width: 12_000, height: 12_000, channels: 3, background: '#ffffff' } }).png({ compressionLevel: 9 }).toBuffer();
    await expect(preprocess(bomb)).rejects.toMatchObject({
      code: 'SLUICE_REQUEST_INVALID',
      message: 'ocr/detect-preprocess: input `image` is 12000×12000 = 144000000 pixels, more than the limit of 40000000 (setting `maxPixels`); send a smaller image',
    });
  }, 30_000);

  it('decodes an image of exactly maxPixels', async () => {
    const { x } = await preprocess(await solidPng(200, 100, [255, 255, 255]), { maxPixels: 20_000 });
    expect(x.shape).toEqual([1, 3, 96, 192]);
  });

  it('refuses a maxSide that is not a multiple of 32', async () => {
    await expect(preprocess(await solidPng(64, 32, [255, 255, 255]), { maxSide: 1000 })).rejects.toMatchObject({
      code: 'SLUICE_CONFIG_INVALID',
      details: { key: 'maxSide' },
    });
  });
});
