import type { Box } from './box.js';

/** Width and height in pixels. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * Maps boxes from probability-map pixels to whole pixels of the original image: scaled per axis,
 * rounded to the nearest pixel edge and clipped to the image. Boxes left with no area are dropped.
 */
export function toImageBoxes(boxes: readonly Box[], map: Size, image: Size): Box[] {
  const sx = image.width / map.width;
  const sy = image.height / map.height;
  const clip = (value: number, limit: number): number => Math.min(limit, Math.max(0, Math.round(value)));
  return boxes
    .map((box): Box => [clip(box[0] * sx, image.width), clip(box[1] * sy, image.height), clip(box[2] * sx, image.width), clip(box[3] * sy, image.height)])
    .filter((box) => box[2] > box[0] && box[3] > box[1]);
}
