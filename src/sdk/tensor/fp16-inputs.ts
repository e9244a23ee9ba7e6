import type { NumericTensorData } from './datatype.js';
import type { Tensor, TensorSpec } from './tensor.js';
import { float32ArrayToFloat16Bits } from './float16.js';

/** Gives the array an input's halves are written into; `undefined` lets the conversion allocate one. */
export type HalfArrayAllocator = (name: string, datatype: 'FP16', length: number) => NumericTensorData | undefined;

function toFp16(tensor: Tensor, allocate?: HalfArrayAllocator): Tensor {
  const source = tensor.data as Float32Array;
  const target = (allocate?.(tensor.name, 'FP16', source.length) ?? new Uint16Array(source.length)) as Uint16Array;
  float32ArrayToFloat16Bits(source, target);
  return { name: tensor.name, datatype: 'FP16', shape: tensor.shape, data: target };
}

/**
 * `inputs` in the datatypes `specs` declare: FP32 tensors for FP16 inputs become FP16 (rounded to
 * nearest, into `allocate`'s arrays when given); every other tensor is passed through as it is.
 */
export function toModelInputDatatypes(inputs: readonly Tensor[], specs: readonly TensorSpec[], allocate?: HalfArrayAllocator): Tensor[] {
  return inputs.map((input) => {
    const spec = specs.find((s) => s.name === input.name);
    return spec?.datatype === 'FP16' && input.datatype === 'FP32' ? toFp16(input, allocate) : input;
  });
}
