import { describe, expect, it } from '@jest/globals';
import { detectorSize } from '../../../../plugins/ocr/detect/detector-size.js';

describe('detectorSize', () => {
  it('rounds each side of a small image to the nearest multiple of 32 without scaling it', () => {
    expect(detectorSize(900, 179)).toEqual({ width: 896, height: 192 });
  });

  it('scales an image whose longest side exceeds the limit down so that side equals the limit', () => {
    expect(detectorSize(2400, 560, 960)).toEqual({ width: 960, height: 224 });
  });

  it('applies the limit to a tall image by its height', () => {
    expect(detectorSize(500, 2000, 640)).toEqual({ width: 160, height: 640 });
  });

  it('never makes a side smaller than 32', () => {
    expect(detectorSize(300, 10)).toEqual({ width: 288, height: 32 });
  });

  it('keeps sides that are already multiples of 32', () => {
    expect(detectorSize(640, 480)).toEqual({ width: 640, height: 480 });
  });
});
