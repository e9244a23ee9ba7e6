import type { NodeHandler } from '../../src/sdk/index.js';
import { cropLinesOptions } from './crop-lines-options.js';
import { decodeRgbImage } from './image/rgb-image.js';
import { invalidNodeInput } from './node-input-error.js';
import { readImageBytes, readNumericTensor } from './node-inputs.js';
import { lineInput } from './recognize/line-input.js';
import { commonLineWidth, scaledLineWidth } from './recognize/line-width.js';
import { toImageBoxes } from './regions/image-boxes.js';
import { inReadingOrder } from './regions/reading-order.js';
import { textBoxes } from './regions/text-boxes.js';

const NAME = 'ocr/crop-lines';

/**
 * `ocr/crop-lines`: the detector's probability map → one recogniser input per text line.
 *
 * Inputs: `image`, the same bytes given to `ocr/detect-preprocess`; `probabilities`, the detector output,
 * FP32 `[1, 1, H, W]`. The map is thresholded into connected regions, each grown into an axis-aligned box,
 * scaled back to the original image (the scale follows from the map's and the image's sizes) and put in
 * reading order. Outputs `lines`, a list of FP32 `[1, 3, 48, W]` recogniser inputs, all of the same W;
 * and `boxes`, a list of `[x0, y0, x1, y1]` pixel edges in the original image, in the same order. No text
 * gives two empty lists. Settings: see {@link cropLinesOptions}.
 */
export const cropLinesHandler: NodeHandler = {
  name: NAME,
  inputs: ['image', 'probabilities'],
  outputs: {
    lines: { list: true, description: 'recogniser inputs, FP32 [1, 3, 48, W], one per line in reading order, one W for all' },
    boxes: { list: true, description: '[x0, y0, x1, y1] of each line in the original image, pixel edges' },
  },
  async run(inputs, context) {
    const options = cropLinesOptions(NAME, context.config);
    const map = readNumericTensor(NAME, 'probabilities', inputs.probabilities, 4, ['FP32']);
    const [batch, channels, mapHeight = 0, mapWidth = 0] = map.shape;
    if (batch !== 1 || channels !== 1) {
      throw invalidNodeInput(NAME, 'probabilities', `must have shape [1, 1, H, W], not [${map.shape.join(', ')}]`);
    }
    const image = await decodeRgbImage(readImageBytes(NAME, 'image', inputs.image), NAME, 'image', options.maxPixels);
    const found = textBoxes(map.data as Float32Array, mapWidth, mapHeight, options.boxes);
    const boxes = inReadingOrder(toImageBoxes(found, { width: mapWidth, height: mapHeight }, image));
    const width = commonLineWidth(
      boxes.map(([x0, y0, x1, y1]) => scaledLineWidth(x1 - x0, y1 - y0)),
      options.widths,
    );
    const lines = await Promise.all(boxes.map((box) => lineInput(image, box, width)));
    return { lines, boxes: boxes.map((box) => [...box]) };
  },
};
