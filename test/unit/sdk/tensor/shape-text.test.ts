import { describe, expect, it } from '@jest/globals';
import { shapeText } from '../../../../src/sdk/tensor/shape-text.js';

describe('shapeText', () => {
  it('shows a shape of up to 16 dimensions whole', () => {
    expect(shapeText([1, 3, 224, 224])).toBe('[1,3,224,224]');
    expect(shapeText([])).toBe('[]');
    expect(shapeText(Array.from({ length: 16 }, (_, i) => i))).toBe('[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]');
  });

  it('shows a longer shape as its first 16 dimensions and its rank', () => {
    expect(shapeText(Array.from({ length: 40_000 }, (_, i) => i))).toBe('[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,… (40000 dims)]');
  });
});
