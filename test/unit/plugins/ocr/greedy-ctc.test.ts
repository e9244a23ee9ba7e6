import { describe, expect, it } from '@jest/globals';
import { greedyCtc } from '../../../../plugins/ocr/ctc/greedy-ctc.js';

/** Per-step one-hot rows over `classes` classes with `p` on the chosen class, flattened. */
function steps(chosen: readonly number[], classes = 4, p = 0.9): Float32Array {
  const values = new Float32Array(chosen.length * classes).fill((1 - p) / (classes - 1));
  chosen.forEach((c, t) => {
    values[t * classes + c] = p;
  });
  return values;
}

describe('greedyCtc', () => {
  it('collapses repeated classes into one', () => {
    expect(greedyCtc(steps([1, 1, 1, 2, 2]), 0, 5, 4).classes).toEqual([1, 2]);
  });

  it('drops blanks', () => {
    expect(greedyCtc(steps([0, 3, 0, 0, 2, 0]), 0, 6, 4).classes).toEqual([3, 2]);
  });

  it('keeps a repeated class twice when a blank separates the repeats', () => {
    expect(greedyCtc(steps([1, 0, 1]), 0, 3, 4).classes).toEqual([1, 1]);
  });

  it('gives nothing and score 0 for a line of blanks', () => {
    expect(greedyCtc(steps([0, 0, 0]), 0, 3, 4)).toEqual({ classes: [], score: 0 });
  });

  it('scores a line by the mean winning value of the kept steps', () => {
    const values = steps([1, 1, 2]);
    values[1 * 4 + 1] = 0.5;
    values[2 * 4 + 2] = 0.7;
    expect(greedyCtc(values, 0, 3, 4).score).toBeCloseTo(0.8, 6);
  });

  it('reads a line that starts at an offset', () => {
    const values = new Float32Array([...steps([1, 2]), ...steps([3, 3])]);
    expect(greedyCtc(values, 8, 2, 4).classes).toEqual([3]);
  });

  it('takes the argmax of logits as well', () => {
    const logits = new Float32Array([-2, 5, 1, 0, -1, -3, 0.5, 4]);
    expect(greedyCtc(logits, 0, 2, 4).classes).toEqual([1, 3]);
  });
});
