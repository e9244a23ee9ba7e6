import { describe, expect, it } from '@jest/globals';
import { Tensor as OrtTensor } from 'onnxruntime-node';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { type Tensor } from '../../../../src/sdk/tensor/index.js';
import { checkOrtTensorValues, ortTensorToSluice, sluiceTensorToOrt } from '../../../../src/runtime/onnx/tensor-conversion.js';

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

describe('sluiceTensorToOrt', () => {
  it('shares numeric data with the ORT tensor instead of copying it', () => {
    const data = new Float32Array([1, 2, 3, 4]);
    const ort = sluiceTensorToOrt({ name: 'x', datatype: 'FP32', shape: [2, 2], data });
    expect(ort.type).toBe('float32');
    expect(ort.dims).toEqual([2, 2]);
    expect(ort.data).toBe(data);
  });

  it('passes FP16 raw bits through as a float16 tensor', () => {
    const ort = sluiceTensorToOrt({ name: 'x', datatype: 'FP16', shape: [2], data: new Uint16Array([0x3c00, 0xc000]) });
    expect(ort.type).toBe('float16');
  });

  it('decodes BYTES elements as UTF-8 strings', () => {
    const utf8 = new TextEncoder();
    const ort = sluiceTensorToOrt({ name: 'x', datatype: 'BYTES', shape: [2], data: [utf8.encode('naïve'), utf8.encode('€')] });
    expect(ort.type).toBe('string');
    expect(ort.data).toEqual(['naïve', '€']);
  });

  it('refuses BYTES that are not valid UTF-8 with SLUICE_TENSOR_INVALID_VALUE', () => {
    const tensor: Tensor = { name: 'text', datatype: 'BYTES', shape: [1], data: [new Uint8Array([0xc3, 0x28])] };
    const error = thrown(() => sluiceTensorToOrt(tensor));
    expect(isSluiceError(error, 'SLUICE_TENSOR_INVALID_VALUE')).toBe(true);
    expect((error as Error).message).toContain('text');
  });

  it('refuses BYTES containing a NUL byte, which ORT strings would cut short', () => {
    const tensor: Tensor = { name: 'text', datatype: 'BYTES', shape: [1], data: [new Uint8Array([0x61, 0x00, 0x62])] };
    expect(isSluiceError(thrown(() => sluiceTensorToOrt(tensor)), 'SLUICE_TENSOR_INVALID_VALUE')).toBe(true);
  });

  it('refuses BF16 with SLUICE_TENSOR_UNSUPPORTED_DATATYPE', () => {
    const tensor = { name: 'x', datatype: 'BF16', shape: [1], data: new Uint16Array([0x3f80]) } as unknown as Tensor;
    expect(isSluiceError(thrown(() => sluiceTensorToOrt(tensor)), 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE')).toBe(true);
  });
});

describe('checkOrtTensorValues', () => {
  const refusal = (tensor: Tensor): unknown =>
    thrown(() => {
      checkOrtTensorValues(tensor);
    });

  it('takes BYTES elements that are UTF-8 without NUL bytes', () => {
    const utf8 = new TextEncoder();
    expect(() => {
      checkOrtTensorValues({ name: 'text', datatype: 'BYTES', shape: [2], data: [utf8.encode('grüße'), new Uint8Array()] });
    }).not.toThrow();
  });

  it('refuses the first BYTES element that is not UTF-8, naming the tensor and the element', () => {
    const tensor: Tensor = { name: 'text', datatype: 'BYTES', shape: [3], data: [new Uint8Array([0x61]), new Uint8Array([0xff]), new Uint8Array([0x00])] };
    const error = refusal(tensor);
    expect(isSluiceError(error, 'SLUICE_TENSOR_INVALID_VALUE')).toBe(true);
    expect((error as Error).message).toBe(
      'tensor text: BYTES element 1 is not valid UTF-8, which ONNX Runtime string tensors require; send the text encoded as UTF-8',
    );
  });

  it('refuses a BYTES element holding a NUL byte', () => {
    const tensor: Tensor = { name: 'text', datatype: 'BYTES', shape: [1], data: [new Uint8Array([0x61, 0x00])] };
    expect((refusal(tensor) as Error).message).toBe(
      'tensor text: BYTES element 0 contains a NUL byte, which ONNX Runtime string tensors cannot carry; send text without NUL bytes',
    );
  });

  it('takes numeric tensors whatever their values', () => {
    expect(() => {
      checkOrtTensorValues({ name: 'x', datatype: 'FP32', shape: [2], data: new Float32Array([Number.NaN, Infinity]) });
    }).not.toThrow();
  });
});

describe('ortTensorToSluice', () => {
  it('names the tensor and keeps its datatype, shape and values', () => {
    const tensor = ortTensorToSluice('out', new OrtTensor('int64', new BigInt64Array([2n ** 60n, -5n]), [1, 2]));
    expect(tensor).toEqual({ name: 'out', datatype: 'INT64', shape: [1, 2], data: new BigInt64Array([2n ** 60n, -5n]) });
  });

  it('encodes ORT strings as UTF-8 bytes', () => {
    const tensor = ortTensorToSluice('out', new OrtTensor('string', ['ü', ''], [2]));
    expect(tensor.datatype).toBe('BYTES');
    expect(tensor.data).toEqual([new Uint8Array([0xc3, 0xbc]), new Uint8Array([])]);
  });

  it('encodes the strings of a BYTES output into one block of memory, empty ones sharing one empty element', () => {
    const data = ortTensorToSluice('out', new OrtTensor('string', ['ab', '', 'c', ''], [4])).data as readonly Uint8Array[];
    expect(data).toEqual([new Uint8Array([0x61, 0x62]), new Uint8Array([]), new Uint8Array([0x63]), new Uint8Array([])]);
    expect(data[2]?.buffer).toBe(data[0]?.buffer);
    expect(data[3]).toBe(data[1]);
  });

  it('normalises BOOL values to 0 and 1', () => {
    const tensor = ortTensorToSluice('out', new OrtTensor('bool', new Uint8Array([0, 1, 2, 255]), [4]));
    expect(tensor.data).toEqual(new Uint8Array([0, 1, 1, 1]));
  });

  it('returns FP16 as raw bits in a Uint16Array', () => {
    const tensor = ortTensorToSluice('out', new OrtTensor('float16', new Uint16Array([0x3c00, 0x7c00]), [2]));
    expect(tensor.datatype).toBe('FP16');
    expect(tensor.data).toEqual(new Uint16Array([0x3c00, 0x7c00]));
  });
});
