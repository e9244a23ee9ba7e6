import type { RuntimeSessionOptions } from '../../src/sdk/runtime/model-runtime.js';
import type { OnnxRuntime } from '../../src/runtime/onnx/onnx-runtime.js';

/**
 * Loads the add model at `modelPath` (see `writeAddModel`) with `options`, runs it once on `a` and `b`
 * (one row of three each) and releases it: the sum it answered.
 */
export async function addOnce(runtime: OnnxRuntime, modelPath: string, options: RuntimeSessionOptions, a: readonly number[], b: readonly number[]): Promise<unknown> {
  const model = await runtime.load(modelPath, options);
  try {
    const [sum] = await model.run([
      { name: 'a', datatype: 'FP32', shape: [1, 3], data: new Float32Array(a) },
      { name: 'b', datatype: 'FP32', shape: [1, 3], data: new Float32Array(b) },
    ]);
    return sum?.data;
  } finally {
    await model.release();
  }
}
