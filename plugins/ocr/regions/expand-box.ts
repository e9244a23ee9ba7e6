import type { Box } from './box.js';

/**
 * Grows a box on every side by `area × ratio / perimeter`. The detector is trained on text regions
 * shrunk by that same offset, so this restores the full extent of the text (with ratio 1.5 for
 * PP-OCRv4; larger ratios leave more margin).
 */
export function expandBox(box: Box, ratio: number): Box {
  const [x0, y0, x1, y1] = box;
  const width = x1 - x0;
  const height = y1 - y0;
  const offset = (width * height * ratio) / (2 * (width + height));
  return [x0 - offset, y0 - offset, x1 + offset, y1 + offset];
}
