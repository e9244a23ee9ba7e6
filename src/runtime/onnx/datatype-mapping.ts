import { type Tensor as OrtTensor } from 'onnxruntime-node';
import { SluiceError } from '../../sdk/errors/index.js';
import { type Datatype, type SupportedDatatype } from '../../sdk/tensor/index.js';

/** ONNX Runtime's name for a tensor element type (`float32`, `int64`, `string`, …). */
export type OrtTensorType = OrtTensor.Type;

const ORT_TYPE_BY_DATATYPE: Readonly<Record<SupportedDatatype, OrtTensorType>> = {
  BOOL: 'bool',
  UINT8: 'uint8',
  UINT16: 'uint16',
  UINT32: 'uint32',
  UINT64: 'uint64',
  INT8: 'int8',
  INT16: 'int16',
  INT32: 'int32',
  INT64: 'int64',
  FP16: 'float16',
  FP32: 'float32',
  FP64: 'float64',
  BYTES: 'string',
};

const DATATYPE_BY_ORT_TYPE: ReadonlyMap<string, SupportedDatatype> = new Map(
  Object.entries(ORT_TYPE_BY_DATATYPE).map(([datatype, ortType]) => [ortType, datatype as SupportedDatatype]),
);

/**
 * The ONNX Runtime element type for an OIP datatype. BF16 (which onnxruntime-node has no tensor type
 * for) and any unknown name throw `SLUICE_TENSOR_UNSUPPORTED_DATATYPE`.
 */
export function toOrtTensorType(datatype: Datatype): OrtTensorType {
  const ortType = Object.hasOwn(ORT_TYPE_BY_DATATYPE, datatype)
    ? ORT_TYPE_BY_DATATYPE[datatype as SupportedDatatype]
    : undefined;
  if (ortType === undefined) {
    throw new SluiceError(
      'SLUICE_TENSOR_UNSUPPORTED_DATATYPE',
      `datatype ${datatype} is not supported by the ONNX runtime`,
      { datatype },
    );
  }
  return ortType;
}

/**
 * The OIP datatype for an ONNX Runtime element type. Types Sluice cannot carry (`int4`, `uint4`, and
 * anything newer) throw `SLUICE_TENSOR_UNSUPPORTED_DATATYPE`.
 */
export function fromOrtTensorType(ortType: string): SupportedDatatype {
  const datatype = DATATYPE_BY_ORT_TYPE.get(ortType);
  if (datatype === undefined) {
    throw new SluiceError(
      'SLUICE_TENSOR_UNSUPPORTED_DATATYPE',
      `ONNX Runtime element type ${ortType} has no supported OIP datatype`,
      { ortType },
    );
  }
  return datatype;
}
