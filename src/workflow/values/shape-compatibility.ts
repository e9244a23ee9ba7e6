/** `[-1,3]` the way messages print shapes. */
export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(',')}]`;
}

/**
 * True when two shapes can describe the same tensor: the same rank, and every dimension equal or `-1`
 * (any size) on either side.
 */
export function shapesCompatible(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((dim, i) => dim < 0 || (b[i] ?? -1) < 0 || dim === b[i]);
}
