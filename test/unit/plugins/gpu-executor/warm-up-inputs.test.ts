import { describe, expect, it } from '@jest/globals';
import { warmUpInputs, warmUpShapeProblems } from '../../../../plugins/gpu-executor/warm-up-inputs.js';

describe('warmUpInputs', () => {
  it('fills the batch dimension with the batch size and other variable dimensions with 1, all zeros', () => {
    expect(warmUpInputs([{ name: 'x', datatype: 'FP32', shape: [-1, 2, -1] }], 3)).toEqual([
      { name: 'x', datatype: 'FP32', shape: [3, 2, 1], data: new Float32Array(6) },
    ]);
  });

  it('takes the dimensions after the batch dimension from the given row shapes', () => {
    const [input] = warmUpInputs([{ name: 'ids', datatype: 'INT64', shape: [-1, -1] }], 2, { ids: [128] });
    expect(input).toEqual({ name: 'ids', datatype: 'INT64', shape: [2, 128], data: new BigInt64Array(256) });
  });

  it('keeps the declared shape of an input whose first dimension is fixed', () => {
    const [input] = warmUpInputs([{ name: 'x', datatype: 'FP32', shape: [2, 3] }], 32);
    expect(input?.shape).toEqual([2, 3]);
  });

  it('takes the given row shape after a fixed first dimension too', () => {
    const [input] = warmUpInputs([{ name: 'ids', datatype: 'INT64', shape: [1, -1] }], 32, { ids: [128] });
    expect(input?.shape).toEqual([1, 128]);
  });

  it('does not take a row shape from the object prototype for an input named like one of its keys', () => {
    const [input] = warmUpInputs([{ name: 'constructor', datatype: 'FP32', shape: [-1, -1] }], 2);
    expect(input?.shape).toEqual([2, 1]);
  });

  it('gives a scalar input no dimensions', () => {
    expect(warmUpInputs([{ name: 't', datatype: 'FP64', shape: [] }], 8)).toEqual([{ name: 't', datatype: 'FP64', shape: [], data: new Float64Array(1) }]);
  });

  it('feeds BYTES inputs empty strings', () => {
    expect(warmUpInputs([{ name: 'text', datatype: 'BYTES', shape: [-1] }], 2)).toEqual([
      { name: 'text', datatype: 'BYTES', shape: [2], data: [new Uint8Array(0), new Uint8Array(0)] },
    ]);
  });

  it('feeds FP16 inputs raw half zeros', () => {
    const [input] = warmUpInputs([{ name: 'h', datatype: 'FP16', shape: [-1, 2] }], 2);
    expect(input?.data).toEqual(new Uint16Array(4));
  });

});

describe('warmUpShapeProblems', () => {
  const specs = [
    { name: 'x', datatype: 'FP32', shape: [-1, 3, -1] },
    { name: 't', datatype: 'FP32', shape: [-1] },
  ] as const;

  it('finds nothing wrong with row shapes that fit the inputs', () => {
    expect(warmUpShapeProblems(specs, { x: [3, 16] })).toEqual([]);
  });

  it('names a row shape for an input the model does not have', () => {
    expect(warmUpShapeProblems(specs, { y: [3] })).toEqual(['`y` is not an input of the model (inputs: x, t)']);
  });

  it('names a row shape for an input with no dimension after the batch dimension', () => {
    expect(warmUpShapeProblems(specs, { t: [4] })).toEqual(['`t` has shape [-1], with no dimension after its first to set']);
  });

  it('names a row shape of the wrong length', () => {
    expect(warmUpShapeProblems(specs, { x: [16] })).toEqual(['`x` has shape [-1,3,-1], so its row shape needs 2 dimension(s), got [16]']);
  });
});
