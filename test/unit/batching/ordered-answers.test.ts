import { describe, expect, it } from '@jest/globals';
import { OrderedAnswers } from '../../../src/batching/ordered-answers.js';

describe('OrderedAnswers', () => {
  it('delivers an answer at once when every earlier one was delivered', () => {
    const ordered = new OrderedAnswers();
    const delivered: number[] = [];
    ordered.release(0, () => delivered.push(0));
    expect(delivered).toEqual([0]);
  });

  it('holds an answer until the earlier ones are delivered', () => {
    const ordered = new OrderedAnswers();
    const delivered: number[] = [];
    ordered.release(1, () => delivered.push(1));
    expect([delivered, ordered.waiting]).toEqual([[], 1]);
  });

  it('delivers out-of-order releases in sequence', () => {
    const ordered = new OrderedAnswers();
    const delivered: number[] = [];
    for (const sequence of [2, 0, 3, 1]) ordered.release(sequence, () => delivered.push(sequence));
    expect([delivered, ordered.waiting]).toEqual([[0, 1, 2, 3], 0]);
  });

  it('delivers what is ready and keeps waiting behind a gap', () => {
    const ordered = new OrderedAnswers();
    const delivered: number[] = [];
    for (const sequence of [1, 0, 3]) ordered.release(sequence, () => delivered.push(sequence));
    expect([delivered, ordered.waiting]).toEqual([[0, 1], 1]);
  });
});
