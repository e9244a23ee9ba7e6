import { describe, expect, it } from '@jest/globals';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { type Datatype, type SupportedDatatype } from '../../../../src/sdk/tensor/index.js';
import { fromOrtTensorType, toOrtTensorType } from '../../../../src/runtime/onnx/datatype-mapping.js';

const EXPECTED: ReadonlyArray<readonly [SupportedDatatype, string]> = [
  ['BOOL', 'bool'],
  ['UINT8', 'uint8'],
  ['UINT16', 'uint16'],
  ['UINT32', 'uint32'],
  ['UINT64', 'uint64'],
  ['INT8', 'int8'],
  ['INT16', 'int16'],
  ['INT32', 'int32'],
  ['INT64', 'int64'],
  ['FP16', 'float16'],
  ['FP32', 'float32'],
  ['FP64', 'float64'],
  ['BYTES', 'string'],
];

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

describe('OIP datatype ↔ ONNX Runtime element type', () => {
  it.each(EXPECTED)('maps %s to %s', (datatype, ortType) => {
    expect(toOrtTensorType(datatype)).toBe(ortType);
  });

  it.each(EXPECTED)('maps %s back from %s', (datatype, ortType) => {
    expect(fromOrtTensorType(ortType)).toBe(datatype);
  });

  it('refuses BF16 with SLUICE_TENSOR_UNSUPPORTED_DATATYPE', () => {
    const error = thrown(() => toOrtTensorType('BF16'));
    expect(isSluiceError(error, 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE')).toBe(true);
    expect((error as Error).message).toContain('BF16');
  });

  it('refuses an unknown datatype name with SLUICE_TENSOR_UNSUPPORTED_DATATYPE', () => {
    const error = thrown(() => toOrtTensorType('COMPLEX64' as Datatype));
    expect(isSluiceError(error, 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE')).toBe(true);
  });

  it('refuses ORT element types without an OIP datatype', () => {
    const error = thrown(() => fromOrtTensorType('int4'));
    expect(isSluiceError(error, 'SLUICE_TENSOR_UNSUPPORTED_DATATYPE')).toBe(true);
    expect((error as Error).message).toContain('int4');
  });
});
