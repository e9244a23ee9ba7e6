import type { NodeHandler } from '../../src/sdk/index.js';
import { DEFAULT_DETECTOR_MAX_SIDE, DETECTOR_STRIDE, detectorSize } from './detect/detector-size.js';
import { detectorInput } from './detect/detector-input.js';
import { numberOption } from './handler-options.js';
import { DEFAULT_MAX_PIXELS, decodeRgbImage, resizeRgbImage } from './image/rgb-image.js';
import { readImageBytes } from './node-inputs.js';

const NAME = 'ocr/detect-preprocess';

/** How far the detector input was scaled from the original image, per axis (detector pixels per image pixel). */
export interface DetectorScale {
  readonly x: number;
  readonly y: number;
}

/**
 * `ocr/detect-preprocess`: image bytes → the PP-OCR detector's input.
 *
 * Input `image`: PNG or JPEG bytes (or a BYTES tensor of one element). Outputs `x`, FP32 `[1, 3, H, W]`
 * with H and W multiples of 32 and the longest side at most `maxSide` (setting, default 960, a multiple
 * of 32), normalised per channel as the detector was trained; and `scale`, a {@link DetectorScale}.
 * An image of more than `maxPixels` pixels (setting, default 40 000 000) is refused before decoding.
 */
export const detectPreprocessHandler: NodeHandler = {
  name: NAME,
  inputs: ['image'],
  outputs: {
    x: { description: 'detector input, FP32 [1, 3, H, W], H and W multiples of 32' },
    scale: { description: '{ x, y }: detector input pixels per original image pixel' },
  },
  async run(inputs, context) {
    const maxSide = numberOption(NAME, context.config, 'maxSide', DEFAULT_DETECTOR_MAX_SIDE, {
      min: DETECTOR_STRIDE,
      integer: true,
      multipleOf: DETECTOR_STRIDE,
    });
    const maxPixels = numberOption(NAME, context.config, 'maxPixels', DEFAULT_MAX_PIXELS, { min: 1, integer: true });
    const image = await decodeRgbImage(readImageBytes(NAME, 'image', inputs.image), NAME, 'image', maxPixels);
    const size = detectorSize(image.width, image.height, maxSide);
    const resized = await resizeRgbImage(image, size.width, size.height);
    const scale: DetectorScale = { x: size.width / image.width, y: size.height / image.height };
    return { x: detectorInput(resized), scale };
  },
};
