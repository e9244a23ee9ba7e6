/** The detector downsamples by 32, so both sides of its input must be multiples of it. */
export const DETECTOR_STRIDE = 32;

/** Default longest side of the detector input, in pixels. */
export const DEFAULT_DETECTOR_MAX_SIDE = 960;

/** Width and height of the detector input for one image. */
export interface DetectorSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The detector input size for an image of `width` × `height`: images whose longest side exceeds
 * `maxSide` are scaled down to fit it (smaller images keep their scale), then each side is rounded to
 * the nearest multiple of 32, and never below 32. `maxSide` must itself be a multiple of 32, so the
 * result never exceeds it.
 */
export function detectorSize(width: number, height: number, maxSide: number = DEFAULT_DETECTOR_MAX_SIDE): DetectorSize {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: toStride(width * scale), height: toStride(height * scale) };
}

function toStride(side: number): number {
  return Math.max(DETECTOR_STRIDE, Math.round(side / DETECTOR_STRIDE) * DETECTOR_STRIDE);
}
