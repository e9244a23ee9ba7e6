import { describe, expect, it } from '@jest/globals';
import type { Tensor } from '../../../../src/common/tensor/index.js';
import { modelInputTensor } from '../../../../src/workflow/values/model-input-tensor.js';

const FP32_ROWS = { name: 'x', datatype: 'FP32', shape: [-1, 3] } as const;

describe('modelInputTensor', () => {
  it('passes a tensor through, named after the input', () => {
    const tensor: Tensor = { name: 'pixels', datatype: 'FP32', shape: [1, 3], data: new Float32Array([1, 2, 3]) };
    expect(modelInputTensor(tensor, FP32_ROWS, 'input `x`')).toEqual({ ...tensor, name: 'x' });
  });

  it('makes nested lists into a tensor of the input’s datatype, shaped by the nesting', () => {
    expect(modelInputTensor([[1, 2, 3], [4, 5, 6]], FP32_ROWS, 'input `x`')).toEqual({
      name: 'x',
      datatype: 'FP32',
      shape: [2, 3],
      data: new Float32Array([1, 2, 3, 4, 5, 6]),
    });
  });

  it('adds a leading dimension of 1 to data with one dimension fewer than the input', () => {
    expect(modelInputTensor([1, 2, 3], FP32_ROWS, 'input `x`').shape).toEqual([1, 3]);
  });

  it('makes a scalar a tensor of ones for every dimension', () => {
    expect(modelInputTensor(7, { name: 'n', datatype: 'INT64', shape: [-1, 1] }, 'input `n`')).toEqual({
      name: 'n',
      datatype: 'INT64',
      shape: [1, 1],
      data: new BigInt64Array([7n]),
    });
  });

  it('makes strings into BYTES elements', () => {
    const tensor = modelInputTensor(['hi'], { name: 's', datatype: 'BYTES', shape: [-1] }, 'input `s`');
    expect(tensor.shape).toEqual([1]);
    expect(tensor.data).toEqual([new TextEncoder().encode('hi')]);
  });

  it('makes raw bytes one BYTES element', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(modelInputTensor(bytes, { name: 'image', datatype: 'BYTES', shape: [-1] }, 'input `image`')).toEqual({
      name: 'image',
      datatype: 'BYTES',
      shape: [1],
      data: [bytes],
    });
  });

  it.each([
    [[[1, 2]], FP32_ROWS, 'SLUICE_TENSOR_SHAPE_MISMATCH', 'input `x`: data of shape [1,2] does not fit [-1,3]'],
    [[[1, 2], [3]], FP32_ROWS, 'SLUICE_TENSOR_SHAPE_MISMATCH', 'input `x`: ragged data, row [1] has 1 values but 2 were expected; every row must have the same length'],
    [[['a', 'b', 'c']], FP32_ROWS, 'SLUICE_TENSOR_INVALID_VALUE', 'input `x`: element 0 is "a", expected a finite number for FP32'],
    [new Uint8Array([1]), FP32_ROWS, 'SLUICE_TENSOR_DATATYPE_MISMATCH', 'input `x`: raw bytes only fit a BYTES input, and this input is FP32'],
    [
      [{ name: 't', datatype: 'FP32', shape: [3], data: new Float32Array(3) }],
      FP32_ROWS,
      'SLUICE_TENSOR_INVALID_VALUE',
      'input `x`: got a list of tensors, and a model input takes one tensor',
    ],
    [[1], { name: 'b', datatype: 'BF16', shape: [-1] }, 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE', 'input `x`: BF16 inputs cannot be made from JSON data; send a tensor'],
  ] as const)('refuses %j for %j', (value, spec, code, message) => {
    expect(() => modelInputTensor(value, spec, 'input `x`')).toThrow(expect.objectContaining({ code, message }));
  });
});
