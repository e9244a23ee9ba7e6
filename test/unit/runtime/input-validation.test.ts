import { describe, expect, it } from '@jest/globals';
import { type Tensor, type TensorSpec } from '../../../src/sdk/tensor/index.js';
import { validateInputs, validateOutputNames } from '../../../src/runtime/input-validation.js';

const specs: readonly TensorSpec[] = [
  { name: 'features', datatype: 'FP32', shape: [-1, 4] },
  { name: 'mask', datatype: 'BOOL', shape: [-1] },
];

function fp32(name: string, shape: number[], length = shape.reduce((a, b) => a * b, 1)): Tensor {
  return { name, datatype: 'FP32', shape, data: new Float32Array(length) };
}

const mask = (n: number): Tensor => ({ name: 'mask', datatype: 'BOOL', shape: [n], data: new Uint8Array(n) });

describe('validateInputs', () => {
  it('accepts every input once with any size for -1 dimensions', () => {
    expect(() => {
      validateInputs('iris', specs, [mask(3), fp32('features', [3, 4])]);
    }).not.toThrow();
  });

  it('refuses an unknown input and lists the known ones', () => {
    expect(() => {
      validateInputs('iris', specs, [fp32('feature', [1, 4])]);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_UNKNOWN_INPUT',
        message: 'model `iris` has no input `feature`; its inputs are: features, mask',
        details: { input: 'feature', expected: ['features', 'mask'] },
      }),
    );
  });

  it('refuses a request that lacks an input, describing it', () => {
    expect(() => {
      validateInputs('iris', specs, [fp32('features', [1, 4])]);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_MISSING_INPUT',
        message: 'model `iris` needs input `mask` (BOOL [-1]), which the request does not give',
        details: { input: 'mask' },
      }),
    );
  });

  it('refuses an input given twice', () => {
    expect(() => {
      validateInputs('iris', specs, [fp32('features', [1, 4]), fp32('features', [1, 4]), mask(1)]);
    }).toThrow(expect.objectContaining({ code: 'SLUICE_REQUEST_INVALID', message: 'input `features` is given more than once; send each input once' }));
  });

  it('refuses the wrong datatype, showing expected and got', () => {
    const int32: Tensor = { name: 'features', datatype: 'INT32', shape: [1, 4], data: new Int32Array(4) };
    expect(() => {
      validateInputs('iris', specs, [int32, mask(1)]);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_DATATYPE_MISMATCH',
        message: 'input `features` of model `iris` must be FP32, got INT32',
        details: { input: 'features', expected: 'FP32', got: 'INT32' },
      }),
    );
  });

  it('refuses a fixed dimension of the wrong size, showing the expected shape with -1', () => {
    expect(() => {
      validateInputs('iris', specs, [fp32('features', [2, 3]), mask(2)]);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `features` of model `iris` must have shape [-1,4] (-1 = any size), got [2,3]',
        details: { input: 'features', expected: [-1, 4], got: [2, 3] },
      }),
    );
  });

  it('refuses the wrong rank', () => {
    expect(() => {
      validateInputs('iris', specs, [fp32('features', [4]), mask(1)]);
    }).toThrow('input `features` of model `iris` must have shape [-1,4] (-1 = any size), got [4]');
  });

  it('quotes only the first 16 dimensions of a very long shape, and its rank', () => {
    expect(() => {
      validateInputs('iris', specs, [fp32('features', Array.from({ length: 40_000 }, () => 1)), mask(1)]);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `features` of model `iris` must have shape [-1,4] (-1 = any size), got [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,… (40000 dims)]',
      }),
    );
  });

  it('refuses data whose length does not match the shape', () => {
    expect(() => {
      validateInputs('iris', specs, [fp32('features', [2, 4], 7), mask(2)]);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_DATA_LENGTH_MISMATCH',
        message: 'input `features`: shape [2,4] needs 8 values, got 7',
        details: { input: 'features', expected: 8, got: 7 },
      }),
    );
  });

  it('refuses an empty tensor with a dimension over 2^32 - 1, naming the input and the dimension', () => {
    const grid: readonly TensorSpec[] = [{ name: 'grid', datatype: 'FP32', shape: [-1, -1] }];
    expect(() => {
      validateInputs('echo', grid, [fp32('grid', [0, 9007199254740991])]);
    }).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
        message: 'input `grid` of model `echo` has shape [0,9007199254740991]: dimension 1 is over 4294967295, the largest a dimension may be',
        details: { input: 'grid', dimension: 1, max: 4294967295, got: [0, 9007199254740991] },
      }),
    );
  });

  it('refuses a batch dimension of 2^32 on an empty tensor', () => {
    const grid: readonly TensorSpec[] = [{ name: 'grid', datatype: 'FP32', shape: [-1, -1] }];
    expect(() => {
      validateInputs('echo', grid, [fp32('grid', [4294967296, 0])]);
    }).toThrow('input `grid` of model `echo` has shape [4294967296,0]: dimension 0 is over 4294967295, the largest a dimension may be');
  });

  it('accepts an empty tensor whose largest dimension is 2^32 - 1, the largest ONNX Runtime takes', () => {
    const grid: readonly TensorSpec[] = [{ name: 'grid', datatype: 'FP32', shape: [-1, -1] }];
    expect(() => {
      validateInputs('echo', grid, [fp32('grid', [4294967295, 0])]);
    }).not.toThrow();
  });

  it('counts BYTES elements, not bytes', () => {
    const text: Tensor = { name: 'text', datatype: 'BYTES', shape: [2], data: [new Uint8Array(3), new Uint8Array(5)] };
    expect(() => {
      validateInputs('nlp', [{ name: 'text', datatype: 'BYTES', shape: [-1] }], [text]);
    }).not.toThrow();
  });

  describe('FP32 data for an FP16 input', () => {
    const half: readonly TensorSpec[] = [{ name: 'x', datatype: 'FP16', shape: [-1, 2] }];
    const acceptsFp32 = (spec: TensorSpec, datatype: Tensor['datatype']): boolean => datatype === spec.datatype || (spec.datatype === 'FP16' && datatype === 'FP32');
    const values = (...data: number[]): Tensor => ({ name: 'x', datatype: 'FP32', shape: [data.length / 2, 2], data: new Float32Array(data) });

    it("refuses a finite value beyond FP16's range, naming the input and the element", () => {
      expect(() => {
        validateInputs('half', half, [values(1, -2, 1e6, 3)], acceptsFp32);
      }).toThrow(
        expect.objectContaining({
          code: 'SLUICE_TENSOR_INVALID_VALUE',
          message: "input `x` of model `half` takes FP16: FP32 element 2 is 1000000, too large to round into FP16's range [-65504, 65504] (a magnitude of 65520 or more), and would become an infinity; send values within that range",
          details: { input: 'x', index: 2, expected: 'a number that rounds into [-65504, 65504] for FP16' },
        }),
      );
    });

    it("passes values that round to FP16's largest, and infinities sent as such", () => {
      expect(() => {
        validateInputs('half', half, [values(-65519, 65504, Infinity, -Infinity)], acceptsFp32);
      }).not.toThrow();
    });
  });

  it('checks a scalar input against the empty shape', () => {
    const scalar: Tensor = { name: 't', datatype: 'FP32', shape: [], data: new Float32Array(1) };
    expect(() => {
      validateInputs('m', [{ name: 't', datatype: 'FP32', shape: [] }], [scalar]);
    }).not.toThrow();
  });
});

describe('validateInputs with the runtime\'s value check', () => {
  it('hands every input that passed the spec checks to the value check', () => {
    const checked: string[] = [];
    validateInputs('iris', specs, [fp32('features', [1, 4]), mask(1)], undefined, (tensor) => {
      checked.push(tensor.name);
    });
    expect(checked).toEqual(['features', 'mask']);
  });

  it('throws what the value check throws', () => {
    const refusal = new Error('mask holds a value the runtime cannot take');
    const refuseMask = (tensor: Tensor): void => {
      if (tensor.name === 'mask') throw refusal;
    };
    expect(() => {
      validateInputs('iris', specs, [fp32('features', [1, 4]), mask(1)], undefined, refuseMask);
    }).toThrow(refusal);
  });

  it('does not value-check a tensor whose shape is wrong', () => {
    const checked: string[] = [];
    expect(() => {
      validateInputs('iris', specs, [fp32('features', [1, 3])], undefined, (tensor) => {
        checked.push(tensor.name);
      });
    }).toThrow(expect.objectContaining({ code: 'SLUICE_TENSOR_SHAPE_MISMATCH' }));
    expect(checked).toEqual([]);
  });
});

describe('validateOutputNames', () => {
  const outputs: readonly TensorSpec[] = [
    { name: 'label', datatype: 'INT64', shape: [-1] },
    { name: 'probabilities', datatype: 'FP32', shape: [-1, 3] },
  ];

  it('returns the requested names in request order', () => {
    expect(validateOutputNames('iris', outputs, ['probabilities', 'label'])).toEqual(['probabilities', 'label']);
  });

  it('refuses an unknown output and lists the known ones', () => {
    expect(() => validateOutputNames('iris', outputs, ['probs'])).toThrow(
      expect.objectContaining({
        code: 'SLUICE_TENSOR_UNKNOWN_OUTPUT',
        message: 'model `iris` has no output `probs`; its outputs are: label, probabilities',
        details: { output: 'probs', expected: ['label', 'probabilities'] },
      }),
    );
  });
});
