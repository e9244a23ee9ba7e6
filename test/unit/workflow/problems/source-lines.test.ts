import { describe, expect, it } from '@jest/globals';
import { SourceLines } from '../../../../src/workflow/problems/source-lines.js';

describe('SourceLines', () => {
  const lines = new SourceLines('ab\ncde\n\nf');

  it.each([
    [0, 1, 1],
    [1, 1, 2],
    [3, 2, 1],
    [5, 2, 3],
    [7, 3, 1],
    [8, 4, 1],
  ])('puts offset %i at line %i, column %i', (offset, line, column) => {
    expect(lines.at(offset)).toEqual({ line, column });
  });

  it('puts the end of the text on the last line', () => {
    expect(lines.at(9)).toEqual({ line: 4, column: 2 });
  });
});
