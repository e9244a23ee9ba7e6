import { describe, expect, it } from '@jest/globals';
import { formatShape, shapesCompatible } from '../../../../src/workflow/values/shape-compatibility.js';

describe('shapesCompatible', () => {
  it.each([
    [[-1, 3], [2, 3], true],
    [[2, 3], [-1, -1], true],
    [[-1, 3], [-1, 4], false],
    [[3], [1, 3], false],
    [[], [], true],
  ])('%j and %j: %s', (a, b, compatible) => {
    expect(shapesCompatible(a, b)).toBe(compatible);
  });

  it('prints shapes without spaces', () => {
    expect(formatShape([-1, 3])).toBe('[-1,3]');
  });
});
