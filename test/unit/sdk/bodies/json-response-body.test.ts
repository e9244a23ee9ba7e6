import { describe, expect, it } from '@jest/globals';
import { encodeJsonOutputs, tensorRows, type Tensor } from '../../../../src/sdk/index.js';

const fp32 = (name: string, shape: number[], values: number[]): Tensor => ({ name, datatype: 'FP32', shape, data: new Float32Array(values) });

describe('tensorRows', () => {
  it('splits a matrix into its rows', () => {
    expect(tensorRows(fp32('y', [2, 3], [1, 2, 3, 4, 5, 6]))).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('gives one value per row of a vector', () => {
    expect(tensorRows(fp32('y', [3], [1, 2, 3]))).toEqual([1, 2, 3]);
  });

  it('nests each row by the remaining dimensions', () => {
    expect(tensorRows(fp32('y', [2, 2, 1], [1, 2, 3, 4]))).toEqual([
      [[1], [2]],
      [[3], [4]],
    ]);
  });

  it('gives a scalar as one row', () => {
    expect(tensorRows(fp32('y', [], [7]))).toEqual([7]);
  });

  it('gives no rows for an empty batch', () => {
    expect(tensorRows(fp32('y', [0, 3], []))).toEqual([]);
  });

  it('converts values to JSON scalars', () => {
    const labels: Tensor = { name: 'label', datatype: 'INT64', shape: [2], data: new BigInt64Array([2n, 0n]) };
    expect(tensorRows(labels)).toEqual([2, 0]);
  });
});

describe('encodeJsonOutputs', () => {
  const probs = fp32('probabilities', [2, 2], [0.25, 0.75, 0.5, 0.5]);
  const label: Tensor = { name: 'label', datatype: 'INT64', shape: [2], data: new BigInt64Array([1n, 0n]) };
  const oneProbs = fp32('probabilities', [1, 2], [0.25, 0.75]);
  const oneLabel: Tensor = { name: 'label', datatype: 'INT64', shape: [1], data: new BigInt64Array([1n]) };

  it('answers the rows of a single output for a batch', () => {
    expect(encodeJsonOutputs([probs], 'batch')).toEqual([
      [0.25, 0.75],
      [0.5, 0.5],
    ]);
  });

  it('answers an object by output name for several outputs', () => {
    expect(encodeJsonOutputs([label, probs], 'batch')).toEqual({
      label: [1, 0],
      probabilities: [
        [0.25, 0.75],
        [0.5, 0.5],
      ],
    });
  });

  it('drops the batch dimension for a single instance', () => {
    expect(encodeJsonOutputs([oneProbs], 'single')).toEqual([0.25, 0.75]);
    expect(encodeJsonOutputs([oneLabel, oneProbs], 'single')).toEqual({ label: 1, probabilities: [0.25, 0.75] });
  });

  it('answers one prediction per instance', () => {
    expect(encodeJsonOutputs([probs], 'instances')).toEqual([
      [0.25, 0.75],
      [0.5, 0.5],
    ]);
    expect(encodeJsonOutputs([label, probs], 'instances')).toEqual([
      { label: 1, probabilities: [0.25, 0.75] },
      { label: 0, probabilities: [0.5, 0.5] },
    ]);
  });

  it('answers an empty object or list when there are no outputs', () => {
    expect(encodeJsonOutputs([], 'batch')).toEqual({});
    expect(encodeJsonOutputs([], 'instances')).toEqual([]);
  });
});
