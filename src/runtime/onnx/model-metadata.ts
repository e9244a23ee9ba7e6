import { type InferenceSession } from 'onnxruntime-node';
import { type TensorSpec } from '../../sdk/tensor/index.js';
import { fromOrtTensorType } from './datatype-mapping.js';

/**
 * Tensor specs from an ORT session's `inputMetadata` or `outputMetadata`. Symbolic dimensions (ORT
 * reports them as their names, or `''` when unnamed) become `-1`; a value with no declared shape gets
 * `[]`. Throws a plain `Error` naming the value when it is not a tensor or its element type has no
 * OIP datatype; the runtime turns that into a load failure.
 */
export function readTensorSpecs(metadata: readonly InferenceSession.ValueMetadata[]): TensorSpec[] {
  return metadata.map((value) => {
    if (!value.isTensor) throw new Error(`${value.name} is not a tensor; only tensor inputs and outputs are supported`);
    let datatype;
    try {
      datatype = fromOrtTensorType(value.type);
    } catch {
      throw new Error(`${value.name} has element type ${value.type}, which Sluice does not support`);
    }
    return { name: value.name, datatype, shape: value.shape.map((dim) => (typeof dim === 'number' ? dim : -1)) };
  });
}
