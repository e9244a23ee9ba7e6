import { describe, expect, it } from '@jest/globals';
import { editDistance } from '../../../../src/workflow/problems/edit-distance.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['', 'abc', 3],
    ['detect', 'detct', 1],
    ['detect-prep', 'detect-pre', 1],
    ['kitten', 'sitting', 3],
    ['modle', 'model', 1],
    ['frist', 'first', 1],
  ])('%s → %s is %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});
