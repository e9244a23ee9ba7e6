import { describe, expect, it } from '@jest/globals';
import { conditionValue } from '../../../../src/workflow/values/condition-value.js';

describe('conditionValue', () => {
  it('shows a tensor as { datatype, shape, data } with flat JSON elements', () => {
    expect(conditionValue({ name: 'p', datatype: 'FP32', shape: [1, 2], data: new Float32Array([0.5, 0.25]) })).toEqual({
      datatype: 'FP32',
      shape: [1, 2],
      data: [0.5, 0.25],
    });
  });

  it('turns typed arrays other than bytes into lists', () => {
    expect(conditionValue(new Int32Array([1, 2]))).toEqual([1, 2]);
  });

  it('keeps raw bytes as bytes', () => {
    const bytes = new Uint8Array([1]);
    expect(conditionValue(bytes)).toBe(bytes);
  });

  it('converts lists and mappings element by element, dropping undefined fields', () => {
    expect(conditionValue({ a: [1, { b: undefined, c: 'x' }] })).toEqual({ a: [1, { c: 'x' }] });
  });
});
