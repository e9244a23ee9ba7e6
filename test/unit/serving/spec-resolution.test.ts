import { describe, expect, it } from '@jest/globals';
import type { TensorSpec } from '../../../src/sdk/tensor/index.js';
import { resolveTensorSpecs } from '../../../src/serving/spec-resolution.js';

const fileInputs: readonly TensorSpec[] = [
  { name: 'features', datatype: 'FP32', shape: [-1, 4] },
  { name: 'mask', datatype: 'BOOL', shape: [-1] },
];

const fileOutputs: readonly TensorSpec[] = [
  { name: 'label', datatype: 'INT64', shape: [-1] },
  { name: 'probabilities', datatype: 'FP32', shape: [-1, 3] },
];

describe('resolveTensorSpecs', () => {
  it('uses the model file’s specs when the manifest declares none', () => {
    expect(resolveTensorSpecs('input', 'iris/model.yaml', undefined, fileInputs)).toBe(fileInputs);
  });

  it('uses the manifest’s specs when they agree with the file', () => {
    const declared = [fileInputs[1]!, fileInputs[0]!];
    expect(resolveTensorSpecs('input', 'iris/model.yaml', declared, fileInputs)).toBe(declared);
  });

  it('lets the manifest pin a variable dimension', () => {
    const declared: TensorSpec[] = [
      { name: 'features', datatype: 'FP32', shape: [8, 4] },
      { name: 'mask', datatype: 'BOOL', shape: [8] },
    ];
    expect(resolveTensorSpecs('input', 'iris/model.yaml', declared, fileInputs)).toBe(declared);
  });

  it('refuses a declared tensor the file does not have, listing the file’s', () => {
    expect(() => resolveTensorSpecs('output', 'iris/model.yaml', [{ name: 'probs', datatype: 'FP32', shape: [-1, 3] }], fileOutputs)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANIFEST_INVALID',
        message: 'iris/model.yaml: output `probs` is not in the model file; its outputs are: label, probabilities',
      }),
    );
  });

  it('refuses a declared datatype that differs from the file’s', () => {
    const declared: TensorSpec[] = [{ ...fileInputs[0]!, datatype: 'FP64' }, fileInputs[1]!];
    expect(() => resolveTensorSpecs('input', 'iris/model.yaml', declared, fileInputs)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANIFEST_INVALID',
        message:
          "iris/model.yaml: input `features` is declared FP64 [-1,4] but the model file has FP32 [-1,4]; fix the manifest or omit inputs to use the file's",
      }),
    );
  });

  it('refuses a declared rank that differs from the file’s', () => {
    const declared: TensorSpec[] = [{ ...fileInputs[0]!, shape: [4] }, fileInputs[1]!];
    expect(() => resolveTensorSpecs('input', 'iris/model.yaml', declared, fileInputs)).toThrow('input `features` is declared FP32 [4] but the model file has FP32 [-1,4]');
  });

  it('refuses a declared size that differs from a fixed dimension of the file', () => {
    const declared: TensorSpec[] = [{ ...fileInputs[0]!, shape: [-1, 5] }, fileInputs[1]!];
    expect(() => resolveTensorSpecs('input', 'iris/model.yaml', declared, fileInputs)).toThrow(expect.objectContaining({ code: 'SLUICE_MANIFEST_INVALID' }));
  });

  it('refuses to loosen a fixed dimension of the file to -1', () => {
    const fixed: TensorSpec[] = [{ name: 'x', datatype: 'FP32', shape: [1, 4] }];
    expect(() => resolveTensorSpecs('input', 'm/model.yaml', [{ name: 'x', datatype: 'FP32', shape: [-1, 4] }], fixed)).toThrow(
      'input `x` is declared FP32 [-1,4] but the model file has FP32 [1,4]',
    );
  });

  it('refuses declared inputs that leave out some of the file’s', () => {
    expect(() => resolveTensorSpecs('input', 'iris/model.yaml', [fileInputs[0]!], fileInputs)).toThrow(
      expect.objectContaining({
        code: 'SLUICE_MANIFEST_INVALID',
        message: 'iris/model.yaml: the manifest lists inputs but not `mask`; list every input or none',
      }),
    );
  });

  it('allows declared outputs to be a subset of the file’s', () => {
    const declared = [fileOutputs[1]!];
    expect(resolveTensorSpecs('output', 'iris/model.yaml', declared, fileOutputs)).toBe(declared);
  });
});
