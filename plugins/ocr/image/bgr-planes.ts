import type { RgbImage } from './rgb-image.js';

/** Per-channel normalisation `(value / 255 - mean) / std`, given in blue, green, red order. */
export interface ChannelNormalisation {
  readonly mean: readonly [number, number, number];
  readonly std: readonly [number, number, number];
}

/**
 * Writes `image` into `target` as three planes in blue, green, red order (the PP-OCR models were trained
 * on images decoded as BGR), each normalised by `normalisation`. Planes are `planeWidth` wide, so a
 * narrower image leaves the rest of each row as it was in `target` (zero padding for a fresh array).
 */
export function writeBgrPlanes(
  image: RgbImage,
  normalisation: ChannelNormalisation,
  target: Float32Array,
  planeWidth: number = image.width,
): void {
  const planeSize = planeWidth * image.height;
  normalisation.mean.forEach((mean, plane) => {
    const std = normalisation.std[plane] ?? 1;
    const rgbChannel = 2 - plane;
    const scale = 1 / (255 * std);
    const shift = mean / std;
    const base = plane * planeSize;
    for (let y = 0; y < image.height; y++) {
      const from = y * image.width * 3 + rgbChannel;
      const to = base + y * planeWidth;
      for (let x = 0; x < image.width; x++) {
        target[to + x] = (image.pixels[from + x * 3] ?? 0) * scale - shift;
      }
    }
  });
}
