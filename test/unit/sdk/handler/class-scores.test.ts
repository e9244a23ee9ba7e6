import { describe, expect, it } from '@jest/globals';
import { SluiceError, classProbabilities, scoreRows, softmax, topClasses } from '../../../../src/sdk/index.js';

describe('softmax', () => {
  it('turns logits into probabilities that sum to one', () => {
    const p = softmax([Math.log(1), Math.log(3)]);
    expect(p[0]).toBeCloseTo(0.25, 12);
    expect(p[1]).toBeCloseTo(0.75, 12);
  });

  it('stays finite for logits that would overflow Math.exp', () => {
    expect(softmax([1000, 1000])).toEqual([0.5, 0.5]);
  });
});

describe('scoreRows', () => {
  it('splits a [N, C] float output into N rows of C scores', () => {
    const output = { name: 'logits', datatype: 'FP32' as const, shape: [2, 3], data: new Float32Array([1, 2, 3, 4, 5, 6]) };
    expect(scoreRows(output, 'h')).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('refuses an output that is not [N, C] floats, naming the handler and the output', () => {
    const output = { name: 'ids', datatype: 'INT64' as const, shape: [1, 2], data: new BigInt64Array([1n, 2n]) };
    expect(() => scoreRows(output, 'image-classifier')).toThrow(
      new SluiceError('SLUICE_HANDLER_FAILED', 'image-classifier: output `ids` is INT64 [1, 2]; class scores must be a float tensor [N, classes]'),
    );
  });
});

describe('topClasses', () => {
  it('ranks the k most probable classes by their labels', () => {
    expect(topClasses([0.1, 0.6, 0.3], ['a', 'b', 'c'], 2)).toEqual([
      { label: 'b', probability: 0.6 },
      { label: 'c', probability: 0.3 },
    ]);
  });

  it('names classes without a label by their index and keeps class order on ties', () => {
    expect(topClasses([0.5, 0.5], undefined, 5)).toEqual([
      { label: '0', probability: 0.5 },
      { label: '1', probability: 0.5 },
    ]);
  });
});

describe('classProbabilities', () => {
  it('maps labels to probabilities in rank order', () => {
    const map = classProbabilities([
      { label: 'b', probability: 0.6 },
      { label: 'a', probability: 0.4 },
    ]);
    expect(Object.entries(map)).toEqual([
      ['b', 0.6],
      ['a', 0.4],
    ]);
  });
});
