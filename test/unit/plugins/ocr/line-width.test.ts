import { describe, expect, it } from '@jest/globals';
import { commonLineWidth, DEFAULT_LINE_WIDTH_OPTIONS, scaledLineWidth } from '../../../../plugins/ocr/recognize/line-width.js';

describe('scaledLineWidth', () => {
  it('keeps the aspect ratio at height 48, rounding up', () => {
    expect(scaledLineWidth(382, 47)).toBe(391);
  });
});

describe('commonLineWidth', () => {
  it('rounds the widest line up to a multiple of the step', () => {
    expect(commonLineWidth([391, 500, 200], DEFAULT_LINE_WIDTH_OPTIONS)).toBe(512);
  });

  it('pads narrow lines to the minimum width', () => {
    expect(commonLineWidth([100], DEFAULT_LINE_WIDTH_OPTIONS)).toBe(320);
  });

  it('caps the width at the maximum', () => {
    expect(commonLineWidth([5000], { minWidth: 320, maxWidth: 1000, step: 32 })).toBe(1000);
  });

  it('gives every image the same width when minimum and maximum agree', () => {
    const fixed = { minWidth: 640, maxWidth: 640, step: 32 };
    expect([commonLineWidth([90], fixed), commonLineWidth([2000], fixed)]).toEqual([640, 640]);
  });
});
