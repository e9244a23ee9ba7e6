/**
 * An axis-aligned box `[x0, y0, x1, y1]`: the left, top, right and bottom pixel edges, so it spans
 * `x1 - x0` pixels across and `y1 - y0` down.
 */
export type Box = readonly [x0: number, y0: number, x1: number, y1: number];
