import { describe, expect, it } from '@jest/globals';
import {
  flattenJsonData,
  inferJsonShape,
  nestJsonValues,
  tensorFromJsonValues,
  tensorToJsonValues,
  type Tensor,
} from '../../../../src/sdk/tensor/index.js';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('inferJsonShape', () => {
  it('gives a scalar the empty shape', () => {
    expect(inferJsonShape(3, 'input `x`')).toEqual([]);
  });

  it('reads the shape of nested rows', () => {
    expect(inferJsonShape([[1, 2, 3], [4, 5, 6]], 'input `x`')).toEqual([2, 3]);
  });

  it('stops at an empty list', () => {
    expect(inferJsonShape([], 'input `x`')).toEqual([0]);
    expect(inferJsonShape([[], []], 'input `x`')).toEqual([2, 0]);
  });

  it('refuses a row shorter than the first one, naming the row', () => {
    expect(() => inferJsonShape([[1, 2], [3]], 'input `x`')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `x`: ragged data, row [1] has 1 values but 2 were expected; every row must have the same length',
      }),
    );
  });

  it('refuses a scalar where its siblings are lists', () => {
    expect(() => inferJsonShape([[1, 2], 3], 'input `x`')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `x`: ragged data, row [1] has 3 but 2 were expected; every row must have the same length',
      }),
    );
  });

  it('refuses a list where its siblings are scalars', () => {
    expect(() => inferJsonShape([1, [2]], 'input `x`')).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `x`: ragged data, element [1] is a list but its siblings are not',
      }),
    );
  });

  it('names a ragged row deep inside the data by its full index', () => {
    expect(() => inferJsonShape([[[1], [2]], [[3], [4, 5]]], 'input `x`')).toThrow('row [1,1] has 2 values but 1 were expected');
  });

  it('accepts 32 levels of nesting', () => {
    expect(inferJsonShape(nested(32), 'input `x`')).toHaveLength(32);
  });

  it('refuses data nested deeper than 32 levels', () => {
    expect(() => inferJsonShape(nested(33), 'input `x`')).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_SHAPE_MISMATCH', message: 'input `x`: data is nested deeper than 32 levels' }),
    );
  });
});

describe('flattenJsonData', () => {
  it('wraps a scalar in a list', () => {
    expect(flattenJsonData(7, 'input `x`')).toEqual([7]);
  });

  it('returns a flat list as it is', () => {
    const flat = [1, 2, 3];
    expect(flattenJsonData(flat, 'input `x`')).toBe(flat);
  });

  it('flattens nested rows in row-major order', () => {
    expect(flattenJsonData([[1, 2], [3, 4], [5, 6]], 'input `x`')).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('refuses data nested deeper than 32 levels', () => {
    expect(() => flattenJsonData(nested(33), 'input `x`')).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_SHAPE_MISMATCH', message: 'input `x`: data is nested deeper than 32 levels' }),
    );
  });

  it('with a shape, flattens data nested exactly as the shape', () => {
    expect(flattenJsonData([[[1, 2]], [[3, 4]]], 'input `x`', [2, 1, 2])).toEqual([1, 2, 3, 4]);
  });

  it('with a shape, returns flat data as it is', () => {
    const flat = [1, 2, 3, 4];
    expect(flattenJsonData(flat, 'input `x`', [2, 2])).toBe(flat);
  });

  it('with a shape, refuses ragged rows even when the count of values matches', () => {
    expect(() => flattenJsonData([[1, 2, 3, 4, 5], [1, 2, 3]], 'input `x`', [2, 4])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `x`: nested data does not match shape [2,4]: row [0] has 5 values, expected 4; nest the data exactly as the shape says, or send it flat',
      }),
    );
  });

  it('with a shape, refuses rectangular data nested as another shape', () => {
    expect(() => flattenJsonData([[1, 2, 3, 4, 5, 6, 7, 8]], 'input `x`', [2, 4])).toThrow(
      'input `x`: nested data does not match shape [2,4]: the outer list has 1 values, expected 2;',
    );
  });

  it('with a shape, refuses a value where the shape needs a list', () => {
    expect(() => flattenJsonData([[1, 2], 3], 'input `x`', [2, 2])).toThrow('nested data does not match shape [2,2]: row [1] is 3, expected a list of 2 values;');
  });

  it('with a shape, refuses data nested deeper than the shape', () => {
    expect(() => flattenJsonData([[1, [2]]], 'input `x`', [1, 2])).toThrow(
      'nested data does not match shape [1,2]: element [0,1] is a list, but the shape has only 2 dimensions;',
    );
  });
});

describe('tensorFromJsonValues', () => {
  it('builds an FP32 tensor', () => {
    expect(tensorFromJsonValues('x', 'FP32', [2, 2], [1, 2.5, -3, 4])).toEqual({
      name: 'x',
      datatype: 'FP32',
      shape: [2, 2],
      data: new Float32Array([1, 2.5, -3, 4]),
    });
  });

  it('builds a scalar tensor from one value', () => {
    expect(tensorFromJsonValues('x', 'FP64', [], [0.25]).data).toEqual(new Float64Array([0.25]));
  });

  it('copies the shape instead of keeping the caller’s list', () => {
    const shape = [2];
    const tensor = tensorFromJsonValues('x', 'INT32', shape, [1, 2]);
    shape[0] = 5;
    expect(tensor.shape).toEqual([2]);
  });

  it('refuses a value count that does not match the shape', () => {
    expect(() => tensorFromJsonValues('x', 'FP32', [2, 3], [1, 2, 3])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        message: 'input `x`: shape [2,3] needs 6 values, got 3',
        details: { expected: 6, got: 3 },
      }),
    );
  });

  it('uses the given description of where the data came from', () => {
    expect(() => tensorFromJsonValues('x', 'FP32', [1], [], 'inputs[0]')).toThrow('inputs[0]: shape [1] needs 1 values, got 0');
  });

  it('quotes only the first 16 dimensions of a very long shape, and its rank', () => {
    const shape = Array.from({ length: 40_000 }, () => 1);
    expect(() => tensorFromJsonValues('x', 'FP32', shape, [])).toThrow('input `x`: shape [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,… (40000 dims)] needs 1 values, got 0');
    expect(() => flattenJsonData([[1]], 'input `x`', shape)).toThrow(/^input `x`: nested data does not match shape \[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,… \(40000 dims\)\]: /);
  });

  it('encodes FP16 values as raw half bits', () => {
    expect(tensorFromJsonValues('x', 'FP16', [3], [1, -2, 0.5]).data).toEqual(new Uint16Array([0x3c00, 0xc000, 0x3800]));
  });

  it('stores 64-bit integers as bigints', () => {
    expect(tensorFromJsonValues('x', 'INT64', [2], [-5, 2 ** 53 - 1]).data).toEqual(new BigInt64Array([-5n, 2n ** 53n - 1n]));
    expect(tensorFromJsonValues('x', 'UINT64', [1], [7]).data).toEqual(new BigUint64Array([7n]));
  });

  it('accepts true, false, 1 and 0 for BOOL', () => {
    expect(tensorFromJsonValues('x', 'BOOL', [4], [true, false, 1, 0]).data).toEqual(new Uint8Array([1, 0, 1, 0]));
  });

  it('refuses other values for BOOL', () => {
    expect(() => tensorFromJsonValues('x', 'BOOL', [2], [true, 2])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_INVALID_VALUE',
        message: 'input `x`: element 1 is 2, expected true or false for BOOL',
        details: { index: 1, expected: 'true or false for BOOL' },
      }),
    );
  });

  it('refuses a string where a number is expected, quoting it', () => {
    expect(() => tensorFromJsonValues('x', 'FP32', [2], [1, 'abc'])).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_INVALID_VALUE', message: 'input `x`: element 1 is "abc", expected a finite number for FP32' }),
    );
  });

  it('shortens a long string in the message', () => {
    expect(() => tensorFromJsonValues('x', 'FP32', [1], ['a'.repeat(50)])).toThrow(`element 0 is "${'a'.repeat(37)}...", expected`);
  });

  it('describes lists, objects and null in the message', () => {
    expect(() => tensorFromJsonValues('x', 'FP32', [1], [[1]])).toThrow('element 0 is a list, expected a finite number for FP32');
    expect(() => tensorFromJsonValues('x', 'FP32', [1], [{}])).toThrow('element 0 is an object, expected a finite number for FP32');
    expect(() => tensorFromJsonValues('x', 'FP32', [1], [null])).toThrow('element 0 is null, expected a finite number for FP32');
  });

  it('refuses non-finite numbers for floating-point datatypes', () => {
    expect(() => tensorFromJsonValues('x', 'FP64', [1], [Infinity])).toThrow('element 0 is Infinity, expected a finite number for FP64');
    expect(() => tensorFromJsonValues('x', 'FP16', [1], [NaN])).toThrow('element 0 is NaN, expected a finite number for FP16');
  });

  it('refuses a finite number that overflows FP32, giving its range', () => {
    expect(() => tensorFromJsonValues('x', 'FP32', [2], [1, 3.5e38])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_INVALID_VALUE',
        message: 'input `x`: element 1 is 3.5e+38, expected a number that rounds into [-3.4028235e+38, 3.4028235e+38] for FP32',
        details: { index: 1, expected: 'a number that rounds into [-3.4028235e+38, 3.4028235e+38] for FP32' },
      }),
    );
    expect(() => tensorFromJsonValues('x', 'FP32', [1], [-1e39])).toThrow('element 0 is -1e+39, expected a number that rounds into [-3.4028235e+38, 3.4028235e+38] for FP32');
  });

  it('accepts FP32 numbers up to its largest finite value', () => {
    expect(tensorFromJsonValues('x', 'FP32', [2], [3.4028235e38, -3.4028235e38]).data).toEqual(new Float32Array([3.4028234663852886e38, -3.4028234663852886e38]));
  });

  it('refuses a finite number that overflows FP16, giving its range', () => {
    expect(() => tensorFromJsonValues('x', 'FP16', [2], [65504, 65520])).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_INVALID_VALUE', message: 'input `x`: element 1 is 65520, expected a number that rounds into [-65504, 65504] for FP16' }),
    );
    expect(() => tensorFromJsonValues('x', 'FP16', [1], [-70000])).toThrow('element 0 is -70000, expected a number that rounds into [-65504, 65504] for FP16');
  });

  it('accepts FP16 numbers that round to its largest finite value', () => {
    expect(tensorFromJsonValues('x', 'FP16', [2], [65519, -65504]).data).toEqual(new Uint16Array([0x7bff, 0xfbff]));
  });

  it('refuses a fraction for an integer datatype', () => {
    expect(() => tensorFromJsonValues('x', 'INT32', [1], [1.5])).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_INVALID_VALUE', message: 'input `x`: element 0 is 1.5, expected an integer in [-2147483648, 2147483647] for INT32' }),
    );
  });

  const ranges: ReadonlyArray<readonly ['INT8' | 'UINT8' | 'INT16' | 'UINT16' | 'UINT32', number, number]> = [
    ['INT8', -128, 127],
    ['UINT8', 0, 255],
    ['INT16', -32768, 32767],
    ['UINT16', 0, 65535],
    ['UINT32', 0, 4294967295],
  ];
  it.each(ranges)('accepts the bounds of %s and refuses one past them', (datatype, min, max) => {
    expect(Array.from(tensorFromJsonValues('x', datatype, [2], [min, max]).data as ArrayLike<number>)).toEqual([min, max]);
    expect(() => tensorFromJsonValues('x', datatype, [1], [min - 1])).toThrow(`expected an integer in [${min}, ${max}] for ${datatype}`);
    expect(() => tensorFromJsonValues('x', datatype, [1], [max + 1])).toThrow(`expected an integer in [${min}, ${max}] for ${datatype}`);
  });

  it('refuses 64-bit integers beyond the safe JavaScript range', () => {
    expect(() => tensorFromJsonValues('x', 'INT64', [1], [2 ** 53])).toThrow(
      `element 0 is ${2 ** 53}, expected an integer in [-9007199254740991, 9007199254740991] for INT64`,
    );
    expect(() => tensorFromJsonValues('x', 'UINT64', [1], [-1])).toThrow('expected an integer in [0, 9007199254740991] for UINT64');
  });

  it('says that a 64-bit integer beyond 2^53 - 1 is sent as binary data, since JSON rounds it', () => {
    expect(() => tensorFromJsonValues('x', 'INT64', [1], [JSON.parse('9007199254740993') as number])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_INVALID_VALUE',
        message:
          'input `x`: element 0 is 9007199254740992, expected an integer in [-9007199254740991, 9007199254740991] for INT64; JSON numbers are exact only within that range, so send larger 64-bit values as binary data',
      }),
    );
    expect(() => tensorFromJsonValues('x', 'UINT64', [1], [-1])).not.toThrow('binary data');
  });

  it('encodes BYTES strings as UTF-8', () => {
    expect(tensorFromJsonValues('x', 'BYTES', [2], ['a', 'é']).data).toEqual([new Uint8Array([0x61]), new Uint8Array([0xc3, 0xa9])]);
  });

  it('refuses a BYTES string holding a lone surrogate, naming the input and the element, instead of encoding it as U+FFFD', () => {
    expect(() => tensorFromJsonValues('x', 'BYTES', [2], ['a', 'b\ud800c'])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_INVALID_VALUE',
        message:
          'input `x`: BYTES element 1 holds the lone UTF-16 surrogate \\ud800, which is no character and has no UTF-8 encoding; send text only (a character beyond U+FFFF as both halves of its surrogate pair)',
      }),
    );
  });

  it('encodes a character beyond U+FFFF, a surrogate pair, as its four UTF-8 bytes', () => {
    expect(tensorFromJsonValues('x', 'BYTES', [1], ['\ud83d\ude00']).data).toEqual([new Uint8Array([0xf0, 0x9f, 0x98, 0x80])]);
  });

  it('refuses a non-string for BYTES', () => {
    expect(() => tensorFromJsonValues('x', 'BYTES', [2], ['a', 1])).toThrow(
      expect.objectContaining({ code: 'SLUICE_TENSOR_INVALID_VALUE', message: 'input `x`: element 1 is 1, expected a string for BYTES' }),
    );
  });
});

describe('tensorToJsonValues', () => {
  const tensor = (datatype: Tensor['datatype'], data: Tensor['data']): Tensor => ({ name: 'y', datatype, shape: [data.length], data });

  it('returns numbers as they are', () => {
    expect(tensorToJsonValues(tensor('FP32', new Float32Array([1.5, -2])))).toEqual([1.5, -2]);
  });

  it('turns 64-bit integers into numbers', () => {
    expect(tensorToJsonValues(tensor('INT64', new BigInt64Array([-3n, 4n])))).toEqual([-3, 4]);
  });

  it('expands FP16 bits to numbers', () => {
    expect(tensorToJsonValues(tensor('FP16', new Uint16Array([0x3c00, 0xc000])))).toEqual([1, -2]);
  });

  it('turns BOOL bytes into booleans', () => {
    expect(tensorToJsonValues(tensor('BOOL', new Uint8Array([1, 0])))).toEqual([true, false]);
  });

  it('decodes BYTES as UTF-8 strings', () => {
    expect(tensorToJsonValues(tensor('BYTES', [new Uint8Array([0xe2, 0x82, 0xac])]))).toEqual(['€']);
  });
});

describe('nestJsonValues', () => {
  it('gives the single value for a scalar shape', () => {
    expect(nestJsonValues([4], [])).toBe(4);
  });

  it('keeps a flat list for a rank-1 shape', () => {
    expect(nestJsonValues([1, 2, 3], [3])).toEqual([1, 2, 3]);
  });

  it('nests row-major values following the shape', () => {
    expect(nestJsonValues([1, 2, 3, 4, 5, 6], [3, 2])).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(nestJsonValues([1, 2, 3, 4], [2, 1, 2])).toEqual([[[1, 2]], [[3, 4]]]);
  });

  it('keeps empty dimensions', () => {
    expect(nestJsonValues([], [2, 0])).toEqual([[], []]);
    expect(nestJsonValues([], [0, 3])).toEqual([]);
  });
});
