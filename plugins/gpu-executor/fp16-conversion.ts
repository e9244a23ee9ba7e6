import { float16BitsToNumber, type Datatype, type Tensor, type TensorSpec } from '../../src/sdk/index.js';

/**
 * Whether the GPU executor takes `datatype` for an input declared as `spec`: its own datatype, or FP32 for
 * an FP16 input (converted before the run). Request validation asks this instead of comparing datatypes.
 */
export function acceptsDatatype(spec: Pick<TensorSpec, 'datatype'>, datatype: Datatype): boolean {
  return datatype === spec.datatype || (spec.datatype === 'FP16' && datatype === 'FP32');
}

/** `outputs` with every FP16 tensor widened to FP32; others are passed through. */
export function fp16OutputsToFp32(outputs: readonly Tensor[]): Tensor[] {
  return outputs.map((output) => {
    if (output.datatype !== 'FP16') return output;
    const source = output.data as Uint16Array;
    const target = new Float32Array(source.length);
    for (let i = 0; i < source.length; i += 1) target[i] = float16BitsToNumber(source[i] ?? 0);
    return { name: output.name, datatype: 'FP32', shape: output.shape, data: target };
  });
}

/** The output specs clients see: FP16 ones as FP32 when `fp16AsFp32`. */
export function answeredOutputSpecs(outputs: readonly TensorSpec[], fp16AsFp32: boolean): TensorSpec[] {
  return outputs.map((spec) => (fp16AsFp32 && spec.datatype === 'FP16' ? { ...spec, datatype: 'FP32' } : spec));
}
