import type { Box } from './box.js';

/**
 * Puts boxes in reading order: rows from top to bottom, boxes within a row from left to right. Boxes are
 * taken by their top edge; a box joins the row begun by the topmost box not yet placed when its vertical
 * centre lies within that box's top and bottom edges, so words of one line stay together even when
 * their tops differ by a few pixels.
 */
export function inReadingOrder<T extends Box>(boxes: readonly T[]): T[] {
  const byTop = [...boxes].sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const ordered: T[] = [];
  let row: T[] = [];
  let rowTop = 0;
  let rowBottom = 0;
  for (const box of byTop) {
    const centre = (box[1] + box[3]) / 2;
    if (row.length > 0 && centre >= rowTop && centre <= rowBottom) {
      row.push(box);
      continue;
    }
    ordered.push(...row.sort((a, b) => a[0] - b[0]));
    row = [box];
    rowTop = box[1];
    rowBottom = box[3];
  }
  ordered.push(...row.sort((a, b) => a[0] - b[0]));
  return ordered;
}
