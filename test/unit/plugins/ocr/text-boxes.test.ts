import { describe, expect, it } from '@jest/globals';
import { DEFAULT_TEXT_BOX_OPTIONS, textBoxes, type TextBoxOptions } from '../../../../plugins/ocr/regions/text-boxes.js';

const noGrowth: TextBoxOptions = { ...DEFAULT_TEXT_BOX_OPTIONS, unclipRatio: 0 };

/** A `width` × `height` map of zeros with `value` filled into each `[x0, y0, x1, y1]` rectangle (edges). */
function mapWith(width: number, height: number, rects: readonly (readonly [number, number, number, number, number])[]): Float32Array {
  const map = new Float32Array(width * height);
  for (const [x0, y0, x1, y1, value] of rects) {
    for (let y = y0; y < y1; y++) map.fill(value, y * width + x0, y * width + x1);
  }
  return map;
}

describe('textBoxes', () => {
  it('gives each text region its pixel-edge box', () => {
    const map = mapWith(40, 20, [
      [2, 3, 30, 8, 0.9],
      [5, 12, 20, 17, 0.8],
    ]);
    expect(textBoxes(map, 40, 20, noGrowth)).toEqual([
      [2, 3, 30, 8],
      [5, 12, 20, 17],
    ]);
  });

  it('grows boxes by the unclip ratio', () => {
    // 20 × 4 region: offset 80 × 1.5 / 48 = 2.5
    const map = mapWith(40, 20, [[10, 8, 30, 12, 0.9]]);
    expect(textBoxes(map, 40, 20, DEFAULT_TEXT_BOX_OPTIONS)).toEqual([[7.5, 5.5, 32.5, 14.5]]);
  });

  it('drops regions whose mean probability is below the box threshold', () => {
    const map = mapWith(40, 20, [
      [2, 3, 30, 8, 0.5],
      [5, 12, 20, 17, 0.8],
    ]);
    expect(textBoxes(map, 40, 20, noGrowth)).toEqual([[5, 12, 20, 17]]);
  });

  it('drops regions thinner than the minimum size', () => {
    const map = mapWith(40, 20, [
      [2, 3, 30, 5, 0.9],
      [5, 12, 20, 17, 0.9],
    ]);
    expect(textBoxes(map, 40, 20, noGrowth)).toEqual([[5, 12, 20, 17]]);
  });

  it('keeps at most maxBoxes regions, the first found', () => {
    const map = mapWith(40, 20, [
      [2, 3, 30, 8, 0.9],
      [5, 12, 20, 17, 0.9],
    ]);
    expect(textBoxes(map, 40, 20, { ...noGrowth, maxBoxes: 1 })).toEqual([[2, 3, 30, 8]]);
  });
});
