import { describe, expect, it } from '@jest/globals';
import type { Tensor } from '../../../../src/sdk/tensor/index.js';
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

  /* A handler's tensor that does not hold what it says is refused before the model call, naming the input. */
  it.each([
    [
      'data of another typed array',
      { name: 't', datatype: 'FP32', shape: [1, 3], data: new Float64Array(3) },
      'its data is a Float64Array, not a Float32Array',
    ],
    ['a plain list as numeric data', { name: 't', datatype: 'FP32', shape: [1, 3], data: [1, 2, 3] }, 'its data is a list, not a Float32Array'],
    ['too few values for its shape', { name: 't', datatype: 'FP32', shape: [1, 3], data: new Float32Array(2) }, 'its shape [1,3] needs 3 values, and its data holds 2'],
    [
      'a dimension that is not a size',
      { name: 't', datatype: 'FP32', shape: [-1, 3], data: new Float32Array(3) },
      'its shape [-1,3] holds a dimension that is not a size (a whole number, 0 or more)',
    ],
  ] as const)('refuses a tensor with %s', (_case, tensor, problem) => {
    expect(() => modelInputTensor(tensor as unknown as Tensor, FP32_ROWS, 'input `x`')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_INVALID_VALUE',
        message: `input \`x\`: the FP32 tensor it got does not hold what its datatype and shape say: ${problem}`,
      }),
    );
  });

  it('refuses a BYTES tensor whose elements are not byte strings', () => {
    const tensor = { name: 't', datatype: 'BYTES', shape: [1], data: ['text'] } as unknown as Tensor;
    expect(() => modelInputTensor(tensor, { name: 's', datatype: 'BYTES', shape: [-1] }, 'input `s`')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_INVALID_VALUE',
        message: 'input `s`: the BYTES tensor it got does not hold what its datatype and shape say: its data is not a list of byte strings',
      }),
    );
  });
});
