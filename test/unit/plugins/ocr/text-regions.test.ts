import { describe, expect, it } from '@jest/globals';
import { findTextRegions } from '../../../../plugins/ocr/regions/text-regions.js';

/** A row-major map from rows of digits, each digit a tenth of probability (`9` = 0.9). */
function mapOf(rows: readonly string[]): { map: Float32Array; width: number; height: number } {
  const width = rows[0]!.length;
  const map = Float32Array.from(rows.join(''), (digit) => Number(digit) / 10);
  return { map, width, height: rows.length };
}

describe('findTextRegions', () => {
  it('finds separate regions with their bounds, pixel counts and mean probabilities', () => {
    const { map, width, height } = mapOf([
      '0000000000', //
      '0880000000',
      '0880006600',
      '0000006600',
    ]);
    expect(findTextRegions(map, width, height, 0.3)).toEqual([
      { left: 1, top: 1, right: 2, bottom: 2, pixelCount: 4, meanProbability: expect.closeTo(0.8, 6) },
      { left: 6, top: 2, right: 7, bottom: 3, pixelCount: 4, meanProbability: expect.closeTo(0.6, 6) },
    ]);
  });

  it('joins pixels that touch only at a corner', () => {
    const { map, width, height } = mapOf(['900', '090', '009']);
    expect(findTextRegions(map, width, height, 0.3)).toHaveLength(1);
  });

  it('counts only pixels strictly above the threshold', () => {
    const { map, width, height } = mapOf(['5550', '0060']);
    expect(findTextRegions(map, width, height, 0.5)).toEqual([
      { left: 2, top: 1, right: 2, bottom: 1, pixelCount: 1, meanProbability: expect.closeTo(0.6, 6) },
    ]);
  });

  it('finds nothing in an empty map', () => {
    const { map, width, height } = mapOf(['000', '000']);
    expect(findTextRegions(map, width, height, 0.3)).toEqual([]);
  });
});
