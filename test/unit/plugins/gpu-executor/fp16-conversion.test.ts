import { describe, expect, it } from '@jest/globals';
import { acceptsDatatype, answeredOutputSpecs, fp16OutputsToFp32 } from '../../../../plugins/gpu-executor/fp16-conversion.js';

describe('acceptsDatatype', () => {
  it('takes FP32 for an FP16 input', () => {
    expect(acceptsDatatype({ datatype: 'FP16' }, 'FP32')).toBe(true);
  });

  it('takes an input’s own datatype', () => {
    expect(acceptsDatatype({ datatype: 'INT64' }, 'INT64')).toBe(true);
  });

  it('refuses FP16 for an FP32 input', () => {
    expect(acceptsDatatype({ datatype: 'FP32' }, 'FP16')).toBe(false);
  });

  it('refuses FP64 for an FP16 input', () => {
    expect(acceptsDatatype({ datatype: 'FP16' }, 'FP64')).toBe(false);
  });
});

describe('fp16OutputsToFp32', () => {
  it('widens FP16 outputs to FP32', () => {
    const [out] = fp16OutputsToFp32([{ name: 'y', datatype: 'FP16', shape: [3], data: new Uint16Array([0x3c00, 0xc000, 0x7c00]) }]);
    expect(out).toEqual({ name: 'y', datatype: 'FP32', shape: [3], data: new Float32Array([1, -2, Infinity]) });
  });

  it('passes other outputs through untouched', () => {
    const y = { name: 'y', datatype: 'INT32', shape: [1], data: new Int32Array([7]) } as const;
    expect(fp16OutputsToFp32([y])[0]).toBe(y);
  });
});

describe('answeredOutputSpecs', () => {
  it('declares FP16 outputs as FP32 when they are widened', () => {
    expect(answeredOutputSpecs([{ name: 'y', datatype: 'FP16', shape: [-1] }], true)).toEqual([{ name: 'y', datatype: 'FP32', shape: [-1] }]);
  });

  it('declares outputs as the model does otherwise', () => {
    expect(answeredOutputSpecs([{ name: 'y', datatype: 'FP16', shape: [-1] }], false)).toEqual([{ name: 'y', datatype: 'FP16', shape: [-1] }]);
  });
});
