import type { Datatype } from '../../src/sdk/tensor/index.js';
import { onnx } from './onnx-proto.js';

const { DataType } = onnx.TensorProto;

const ELEMENT_TYPES: Readonly<Record<Datatype, number>> = {
  BOOL: DataType.BOOL,
  UINT8: DataType.UINT8,
  UINT16: DataType.UINT16,
  UINT32: DataType.UINT32,
  UINT64: DataType.UINT64,
  INT8: DataType.INT8,
  INT16: DataType.INT16,
  INT32: DataType.INT32,
  INT64: DataType.INT64,
  FP16: DataType.FLOAT16,
  FP32: DataType.FLOAT,
  FP64: DataType.DOUBLE,
  BYTES: DataType.STRING,
  BF16: DataType.BFLOAT16,
};

/**
 * The ONNX `TensorProto.DataType` number for an OIP datatype, as used in value infos, initializers
 * and the `to` attribute of `Cast`. BF16 maps too, so that tests can build models Sluice must refuse.
 */
export function onnxElementType(datatype: Datatype): number {
  return ELEMENT_TYPES[datatype];
}
