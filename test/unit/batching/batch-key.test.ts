import { describe, expect, it } from '@jest/globals';
import { batchPlacement } from '../../../src/batching/batch-key.js';
import type { SupportedDatatype, Tensor } from '../../../src/sdk/tensor/index.js';

function tensor(name: string, shape: readonly number[], datatype: SupportedDatatype = 'FP32'): Tensor {
  const length = shape.reduce((a, b) => a * b, 1);
  return { name, datatype, shape, data: datatype === 'INT64' ? new BigInt64Array(length) : new Float32Array(length) };
}

function keyOf(inputs: readonly Tensor[], outputNames?: readonly string[]): string | undefined {
  return batchPlacement(inputs, outputNames, true).key;
}

describe('batchPlacement', () => {
  it('brings the first dimension as its rows', () => {
    expect(batchPlacement([tensor('x', [3, 4])], undefined, true).rows).toBe(3);
  });

  it('gives jobs with the same names, datatypes, non-batch dimensions and outputs the same key', () => {
    expect(keyOf([tensor('x', [1, 4]), tensor('ids', [1], 'INT64')], ['y'])).toBe(keyOf([tensor('x', [5, 4]), tensor('ids', [5], 'INT64')], ['y']));
  });

  it('runs a job of zero rows alone, so that its answer never depends on its batch-mates', () => {
    expect(batchPlacement([tensor('x', [0, 4])], undefined, true)).toEqual({ rows: 0, key: undefined });
  });

  it('gives a job a key when its model can batch', () => {
    expect(keyOf([tensor('x', [1, 4])])).toBeDefined();
  });

  it('separates jobs whose non-batch dimensions differ', () => {
    expect(keyOf([tensor('x', [1, 4])])).not.toBe(keyOf([tensor('x', [1, 5])]));
  });

  it('separates jobs whose inputs have different ranks', () => {
    expect(keyOf([tensor('x', [1, 4])])).not.toBe(keyOf([tensor('x', [1, 4, 1])]));
  });

  it('separates jobs whose datatypes differ', () => {
    expect(keyOf([tensor('x', [1, 4])])).not.toBe(keyOf([tensor('x', [1, 4], 'INT64')]));
  });

  it('separates jobs whose input names differ', () => {
    expect(keyOf([tensor('x', [1, 4])])).not.toBe(keyOf([tensor('z', [1, 4])]));
  });

  it('separates jobs that ask for different outputs', () => {
    expect(keyOf([tensor('x', [1, 4])], ['y'])).not.toBe(keyOf([tensor('x', [1, 4])], ['z']));
  });

  it('separates jobs that name their outputs from jobs that take all of them', () => {
    expect(keyOf([tensor('x', [1, 4])], ['y'])).not.toBe(keyOf([tensor('x', [1, 4])]));
  });

  it('does not let the order of the inputs matter', () => {
    expect(keyOf([tensor('a', [1, 2]), tensor('b', [1, 3])])).toBe(keyOf([tensor('b', [2, 3]), tensor('a', [2, 2])]));
  });

  it('gives no key for a model that cannot batch', () => {
    expect(batchPlacement([tensor('x', [1, 4])], undefined, false)).toEqual({ rows: 1, key: undefined });
  });

  it('gives no key when the inputs disagree on the first dimension', () => {
    expect(batchPlacement([tensor('a', [2, 3]), tensor('b', [3, 3])], undefined, true)).toEqual({ rows: 2, key: undefined });
  });

  it('gives no key to a scalar input', () => {
    expect(batchPlacement([tensor('x', [])], undefined, true)).toEqual({ rows: 1, key: undefined });
  });

  it('gives no key to a job without inputs', () => {
    expect(batchPlacement([], undefined, true)).toEqual({ rows: 1, key: undefined });
  });
});
