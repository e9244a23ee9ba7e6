/** How many dimensions of a shape a message quotes; a longer shape is cut there and its rank given. */
export const QUOTED_DIMENSIONS = 16;

/**
 * A shape as messages show it, `[1,3,224,224]`. A shape of more than {@link QUOTED_DIMENSIONS} dimensions
 * shows its first ones and its rank, `[1,1,…,1,… (40000 dims)]`, so that a request with a huge shape does
 * not get an answer (and a log line) as large as the request.
 */
export function shapeText(shape: readonly number[]): string {
  if (shape.length <= QUOTED_DIMENSIONS) return `[${shape.join(',')}]`;
  return `[${shape.slice(0, QUOTED_DIMENSIONS).join(',')},… (${shape.length} dims)]`;
}
