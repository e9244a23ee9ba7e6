/** A connected region of the probability map above the threshold. */
export interface TextRegion {
  /** Leftmost, topmost, rightmost and bottommost pixel of the region (inclusive indices). */
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly pixelCount: number;
  /** Mean probability over the region's own pixels. */
  readonly meanProbability: number;
}

/**
 * Finds the 8-connected regions of a `width` × `height` row-major probability map whose pixels exceed
 * `threshold`, in the order their first pixel appears (row by row).
 */
export function findTextRegions(map: ArrayLike<number>, width: number, height: number, threshold: number): TextRegion[] {
  const visited = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  const regions: TextRegion[] = [];
  for (let start = 0; start < width * height; start++) {
    if (visited[start] === 1 || !((map[start] ?? 0) > threshold)) continue;
    visited[start] = 1;
    stack[0] = start;
    let size = 1;
    let left = width;
    let top = height;
    let right = -1;
    let bottom = -1;
    let pixelCount = 0;
    let sum = 0;
    while (size > 0) {
      const index = stack[--size] ?? 0;
      const x = index % width;
      const y = (index - x) / width;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      pixelCount++;
      sum += map[index] ?? 0;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const neighbour = ny * width + nx;
          if (visited[neighbour] === 1 || !((map[neighbour] ?? 0) > threshold)) continue;
          visited[neighbour] = 1;
          stack[size++] = neighbour;
        }
      }
    }
    regions.push({ left, top, right, bottom, pixelCount, meanProbability: sum / pixelCount });
  }
  return regions;
}
