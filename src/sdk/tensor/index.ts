export {
  DATATYPES,
  NUMERIC_DATATYPE_INFO,
  isDatatype,
  isNumericDatatype,
  type Datatype,
  type NumericDatatype,
  type NumericTensorData,
  type SupportedDatatype,
  type TypedArrayByDatatype,
} from './datatype.js';
export { elementCount, type BytesTensorData, type Tensor, type TensorData, type TensorSpec } from './tensor.js';
export { float16BitsToNumber, float16OverflowIndex, float32ArrayToFloat16Bits, float32ToFloat16Bits } from './float16.js';
export { flattenJsonData, inferJsonShape, nestJsonValues, tensorFromJsonValues, tensorToJsonValues, type JsonScalar } from './json-tensor-codec.js';
export { tensorFromRawBytes, tensorToRawBytes } from './raw-tensor-codec.js';
export { toModelInputDatatypes, type HalfArrayAllocator } from './fp16-inputs.js';
export { MAX_SPELLED_OUT_VALUES, checkSpelledOutSize } from './encoded-values-limit.js';
