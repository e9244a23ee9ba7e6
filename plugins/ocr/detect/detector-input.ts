import type { Tensor } from '../../../src/sdk/index.js';
import { writeBgrPlanes, type ChannelNormalisation } from '../image/bgr-planes.js';
import type { RgbImage } from '../image/rgb-image.js';

/** The detector's input name. */
export const DETECTOR_INPUT_NAME = 'x';

/** ImageNet mean and deviation, applied to the blue, green and red planes in that order as in training. */
export const DETECTOR_NORMALISATION: ChannelNormalisation = {
  mean: [0.485, 0.456, 0.406],
  std: [0.229, 0.224, 0.225],
};

/** The detector input for an image already resized to the detector size: FP32 `[1, 3, H, W]`. */
export function detectorInput(image: RgbImage): Tensor {
  const data = new Float32Array(3 * image.width * image.height);
  writeBgrPlanes(image, DETECTOR_NORMALISATION, data);
  return { name: DETECTOR_INPUT_NAME, datatype: 'FP32', shape: [1, 3, image.height, image.width], data };
}
