import { describe, expect, it } from '@jest/globals';
import type { Box } from '../../../../plugins/ocr/regions/box.js';
import { inReadingOrder } from '../../../../plugins/ocr/regions/reading-order.js';

describe('inReadingOrder', () => {
  it('puts rows from top to bottom', () => {
    const boxes: Box[] = [
      [0, 100, 50, 130],
      [0, 10, 50, 40],
      [0, 55, 50, 85],
    ];
    expect(inReadingOrder(boxes)).toEqual([boxes[1], boxes[2], boxes[0]]);
  });

  it('puts the boxes of one row from left to right even when the right one starts higher', () => {
    const left: Box = [10, 14, 80, 44];
    const right: Box = [200, 10, 260, 40];
    expect(inReadingOrder([right, left])).toEqual([left, right]);
  });

  it('starts a new row for a box whose centre is below the row', () => {
    const upperRight: Box = [200, 10, 260, 40];
    const lowerLeft: Box = [10, 30, 80, 60];
    expect(inReadingOrder([lowerLeft, upperRight])).toEqual([upperRight, lowerLeft]);
  });

  it('returns nothing for no boxes', () => {
    expect(inReadingOrder([])).toEqual([]);
  });
});
