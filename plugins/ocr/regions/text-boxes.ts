import type { Box } from './box.js';
import { expandBox } from './expand-box.js';
import { findTextRegions } from './text-regions.js';

/** How text boxes are read off the detector's probability map. */
export interface TextBoxOptions {
  /** Pixels above this probability are text. */
  readonly threshold: number;
  /** Regions whose mean probability is below this are dropped as noise. */
  readonly boxThreshold: number;
  /** How far regions are grown back out; see {@link expandBox}. */
  readonly unclipRatio: number;
  /** Regions narrower or shorter than this many map pixels are dropped. */
  readonly minSize: number;
  /** At most this many regions are kept (the first found, top to bottom). */
  readonly maxBoxes: number;
}

/** The settings PP-OCRv4's detector was tuned with. */
export const DEFAULT_TEXT_BOX_OPTIONS: TextBoxOptions = {
  threshold: 0.3,
  boxThreshold: 0.6,
  unclipRatio: 1.5,
  minSize: 3,
  maxBoxes: 1000,
};

/**
 * Axis-aligned text boxes on a `width` × `height` probability map, in map pixel edges (not yet rounded or
 * clipped). Axis-aligned boxes suit horizontal text; rotated lines get a box that also holds some
 * background above and below them.
 */
export function textBoxes(map: ArrayLike<number>, width: number, height: number, options: TextBoxOptions): Box[] {
  return findTextRegions(map, width, height, options.threshold)
    .slice(0, options.maxBoxes)
    .filter((region) => region.meanProbability >= options.boxThreshold)
    .filter((region) => Math.min(region.right - region.left + 1, region.bottom - region.top + 1) >= options.minSize)
    .map((region) => expandBox([region.left, region.top, region.right + 1, region.bottom + 1], options.unclipRatio));
}
