import type { Tensor } from '../../../src/sdk/index.js';
import { writeBgrPlanes, type ChannelNormalisation } from '../image/bgr-planes.js';
import { sharpOf, type RgbImage } from '../image/rgb-image.js';
import type { Box } from '../regions/box.js';
import { RECOGNIZER_HEIGHT, scaledLineWidth } from './line-width.js';

/** The recogniser's input name. */
export const RECOGNIZER_INPUT_NAME = 'x';

/** The recogniser takes pixels scaled to [-1, 1]. */
export const RECOGNIZER_NORMALISATION: ChannelNormalisation = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] };

/**
 * The recogniser input for the line in `box` of `image`: the crop scaled to the recogniser height keeping
 * its aspect ratio (squeezed when it would be wider than `width`), normalised, and padded on the right
 * with zeros to `width`. FP32 `[1, 3, 48, width]`.
 */
export async function lineInput(image: RgbImage, box: Box, width: number): Promise<Tensor> {
  const [x0, y0, x1, y1] = box;
  const lineWidth = Math.min(width, scaledLineWidth(x1 - x0, y1 - y0));
  const data = await sharpOf(image)
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .resize({ width: lineWidth, height: RECOGNIZER_HEIGHT, fit: 'fill' })
    .raw()
    .toBuffer();
  const line: RgbImage = { width: lineWidth, height: RECOGNIZER_HEIGHT, pixels: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  const tensor = new Float32Array(3 * RECOGNIZER_HEIGHT * width);
  writeBgrPlanes(line, RECOGNIZER_NORMALISATION, tensor, width);
  return { name: RECOGNIZER_INPUT_NAME, datatype: 'FP32', shape: [1, 3, RECOGNIZER_HEIGHT, width], data: tensor };
}
