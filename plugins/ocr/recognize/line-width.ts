/** The recogniser's fixed input height. */
export const RECOGNIZER_HEIGHT = 48;

/** How wide the recogniser inputs of one image are made. */
export interface LineWidthOptions {
  /** Narrower lines are padded to this width. */
  readonly minWidth: number;
  /** Lines that would be wider are squeezed horizontally to this width. */
  readonly maxWidth: number;
  /** The common width is rounded up to a multiple of this. */
  readonly step: number;
}

/**
 * Defaults: PP-OCRv4 was trained on 320-pixel-wide lines; steps of 32 keep widths few; 1920 pixels holds a
 * line 40 times as wide as it is tall.
 */
export const DEFAULT_LINE_WIDTH_OPTIONS: LineWidthOptions = { minWidth: 320, maxWidth: 1920, step: 32 };

/** The width a `width` × `height` crop takes when scaled to the recogniser height, keeping its aspect ratio. */
export function scaledLineWidth(width: number, height: number): number {
  return Math.max(1, Math.ceil((RECOGNIZER_HEIGHT * width) / height));
}

/**
 * The one width every line of an image is padded to, so that they share a shape and can run as one
 * batch: the widest scaled line rounded up to a multiple of `step`, within `minWidth` and `maxWidth`.
 */
export function commonLineWidth(scaledWidths: readonly number[], options: LineWidthOptions): number {
  const widest = Math.max(0, ...scaledWidths);
  const rounded = Math.ceil(widest / options.step) * options.step;
  return Math.min(options.maxWidth, Math.max(options.minWidth, rounded));
}
