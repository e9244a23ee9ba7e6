import { describe, expect, it } from '@jest/globals';
import type { Tensor } from '../../../../src/sdk/tensor/index.js';
import { tensorDataProblem } from '../../../../src/sdk/tensor/tensor-data-problem.js';

/** A value made by code, which may break the `Tensor` type in any field. */
const made = (fields: Record<string, unknown>): Tensor => ({ name: 't', ...fields }) as unknown as Tensor;

describe('tensorDataProblem', () => {
  it.each([
    ['FP32 in a Float32Array', { datatype: 'FP32', shape: [2, 2], data: new Float32Array(4) }],
    ['INT64 in a BigInt64Array', { datatype: 'INT64', shape: [3], data: new BigInt64Array(3) }],
    ['BOOL in a Uint8Array', { datatype: 'BOOL', shape: [1], data: new Uint8Array(1) }],
    ['BYTES as byte strings', { datatype: 'BYTES', shape: [2], data: [new Uint8Array(1), Buffer.from('ab')] }],
    ['a scalar', { datatype: 'FP64', shape: [], data: new Float64Array(1) }],
    ['no elements', { datatype: 'FP32', shape: [0, 4], data: new Float32Array(0) }],
  ])('finds nothing wrong with %s', (_case, fields) => {
    expect(tensorDataProblem(made(fields))).toBeUndefined();
  });

  it.each([
    ['BF16, which no tensor carries', { datatype: 'BF16', shape: [1], data: new Uint16Array(1) }, 'BF16 tensors are not supported'],
    ['an unknown datatype', { datatype: 'FP8', shape: [1], data: new Uint8Array(1) }, 'its datatype "FP8" is not one Sluice carries'],
    ['a datatype named after an Object property', { datatype: 'constructor', shape: [1], data: new Uint8Array(1) }, 'its datatype "constructor" is not one Sluice carries'],
    ['no datatype', { shape: [1], data: new Uint8Array(1) }, 'its datatype undefined is not one Sluice carries'],
    ['a shape that is no list', { datatype: 'FP32', shape: 4, data: new Float32Array(4) }, 'its shape is not a list of dimensions'],
    ['a negative dimension', { datatype: 'FP32', shape: [-1, 4], data: new Float32Array(4) }, 'its shape [-1,4] holds a dimension that is not a size (a whole number, 0 or more)'],
    ['a dimension that is a string', { datatype: 'FP32', shape: ['4'], data: new Float32Array(4) }, 'its shape [4] holds a dimension that is not a size (a whole number, 0 or more)'],
    ['numeric data in another typed array', { datatype: 'FP32', shape: [4], data: new Float64Array(4) }, 'its data is a Float64Array, not a Float32Array'],
    ['numeric data as a list', { datatype: 'INT32', shape: [2], data: [1, 2] }, 'its data is a list, not a Int32Array'],
    ['no data', { datatype: 'FP32', shape: [1], data: null }, 'its data is null, not a Float32Array'],
    ['BYTES data as strings', { datatype: 'BYTES', shape: [1], data: ['text'] }, 'its data is not a list of byte strings'],
    ['BYTES data as one byte string', { datatype: 'BYTES', shape: [1], data: new Uint8Array(1) }, 'its data is not a list of byte strings'],
    ['more values than its shape', { datatype: 'UINT8', shape: [2], data: new Uint8Array(3) }, 'its shape [2] needs 2 values, and its data holds 3'],
  ])('reports %s', (_case, fields, problem) => {
    expect(tensorDataProblem(made(fields))).toBe(problem);
  });
});
