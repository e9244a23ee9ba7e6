import { isUtf8 } from 'node:buffer';
import { Tensor as OrtTensor } from 'onnxruntime-node';
import { SluiceError } from '../../sdk/errors/index.js';
import { utf8BytesElements } from '../../sdk/tensor/bytes-elements.js';
import { type NumericTensorData, type Tensor } from '../../sdk/tensor/index.js';
import { fromOrtTensorType, toOrtTensorType } from './datatype-mapping.js';

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Wraps a Sluice tensor as an ONNX Runtime CPU tensor. Numeric data is shared, not copied. BYTES
 * elements become ORT strings, so each must be valid UTF-8 without NUL bytes (the Node binding cuts a
 * string at its first NUL); otherwise this throws `SLUICE_TENSOR_INVALID_VALUE`. BF16 throws
 * `SLUICE_TENSOR_UNSUPPORTED_DATATYPE`.
 */
export function sluiceTensorToOrt(tensor: Tensor): OrtTensor {
  const ortType = toOrtTensorType(tensor.datatype);
  if (ortType === 'string') {
    if (!Array.isArray(tensor.data)) throw dataKindMismatch(tensor);
    const elements = tensor.data as readonly Uint8Array[];
    const strings = elements.map((bytes, index) => toOrtString(tensor.name, bytes, index));
    return new OrtTensor('string', strings, tensor.shape);
  }
  if (Array.isArray(tensor.data)) throw dataKindMismatch(tensor);
  return new OrtTensor(ortType, tensor.data as NumericTensorData, tensor.shape);
}

/**
 * Converts an ONNX Runtime CPU tensor to a Sluice tensor named `name`. Strings become UTF-8 bytes,
 * FP16 stays raw half bits in a `Uint16Array` (also where the platform has `Float16Array`), and BOOL is
 * normalised to 0/1 bytes.
 */
export function ortTensorToSluice(name: string, tensor: OrtTensor): Tensor {
  const datatype = fromOrtTensorType(tensor.type);
  const shape = [...tensor.dims];
  const data: unknown = tensor.data;
  switch (datatype) {
    case 'BYTES':
      return { name, datatype, shape, data: utf8BytesElements(data as readonly string[]) };
    case 'FP16': {
      const view = data as ArrayBufferView & { readonly length: number };
      return { name, datatype, shape, data: new Uint16Array(view.buffer, view.byteOffset, view.length) };
    }
    case 'BOOL':
      return { name, datatype, shape, data: (data as Uint8Array).map((value) => (value === 0 ? 0 : 1)) };
    default:
      return { name, datatype, shape, data: data as NumericTensorData };
  }
}

/**
 * Throws `SLUICE_TENSOR_INVALID_VALUE` when `tensor` holds values an ONNX Runtime tensor cannot carry:
 * a BYTES element that is not valid UTF-8 or holds a NUL byte. Other datatypes pass. The error names the
 * tensor and the first such element, so a request can be refused before it is queued. Nothing is
 * decoded here: the run decodes the elements once, when it builds the tensor.
 */
export function checkOrtTensorValues(tensor: Tensor): void {
  if (tensor.datatype !== 'BYTES' || !Array.isArray(tensor.data)) return;
  for (const [index, bytes] of (tensor.data as readonly Uint8Array[]).entries()) {
    const problem = ortStringProblem(tensor.name, bytes, index);
    if (problem !== undefined) throw problem;
  }
}

/** Why `bytes`, element `index` of tensor `tensorName`, cannot be an ORT string; undefined when it can. */
function ortStringProblem(tensorName: string, bytes: Uint8Array, index: number): SluiceError | undefined {
  if (bytes.includes(0)) {
    return new SluiceError(
      'SLUICE_TENSOR_INVALID_VALUE',
      `tensor ${tensorName}: BYTES element ${index} contains a NUL byte, which ONNX Runtime string tensors cannot carry; send text without NUL bytes`,
      { tensor: tensorName, index },
    );
  }
  if (!isUtf8(bytes)) {
    return new SluiceError(
      'SLUICE_TENSOR_INVALID_VALUE',
      `tensor ${tensorName}: BYTES element ${index} is not valid UTF-8, which ONNX Runtime string tensors require; send the text encoded as UTF-8`,
      { tensor: tensorName, index },
    );
  }
  return undefined;
}

function toOrtString(tensorName: string, bytes: Uint8Array, index: number): string {
  const problem = ortStringProblem(tensorName, bytes, index);
  if (problem !== undefined) throw problem;
  return utf8Decoder.decode(bytes);
}

function dataKindMismatch(tensor: Tensor): SluiceError {
  const expected = tensor.datatype === 'BYTES' ? 'a list of byte strings' : 'a typed array';
  return new SluiceError(
    'SLUICE_TENSOR_INVALID_VALUE',
    `tensor ${tensor.name}: ${tensor.datatype} data must be ${expected}`,
    { tensor: tensor.name, datatype: tensor.datatype },
  );
}
