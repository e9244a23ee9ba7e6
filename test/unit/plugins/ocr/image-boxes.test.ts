import { describe, expect, it } from '@jest/globals';
import { toImageBoxes } from '../../../../plugins/ocr/regions/image-boxes.js';

describe('toImageBoxes', () => {
  it('scales each axis by its own ratio and rounds to whole pixels', () => {
    const boxes = toImageBoxes([[10.2, 4.6, 20.4, 9.1]], { width: 64, height: 32 }, { width: 128, height: 96 });
    expect(boxes).toEqual([[20, 14, 41, 27]]);
  });

  it('clips boxes to the image', () => {
    const boxes = toImageBoxes([[-3, -1.5, 70, 40]], { width: 64, height: 32 }, { width: 64, height: 32 });
    expect(boxes).toEqual([[0, 0, 64, 32]]);
  });

  it('drops boxes left without area', () => {
    const boxes = toImageBoxes([[70, 5, 80, 10]], { width: 64, height: 32 }, { width: 64, height: 32 });
    expect(boxes).toEqual([]);
  });
});
