import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { OnnxGraphBuilder } from '../../scripts/onnx/onnx-graph-builder.js';
import { onnx } from '../../scripts/onnx/onnx-proto.js';

/** The weights {@link writeExternalDataModel} multiplies by, kept in its weight file. */
export const EXTERNAL_WEIGHTS = [2, 3, 4] as const;

/** The file the weights of {@link writeExternalDataModel} are stored in, beside `model.onnx`. */
export const EXTERNAL_DATA_FILE = 'weights.data';

/**
 * A model whose weights are not in `model.onnx` but in a separate file, as large models keep them (ONNX
 * external data): input `x` FP32 `[N, 3]` → `Mul` by the initializer `weights` (FP32 `[3]`,
 * {@link EXTERNAL_WEIGHTS}, stored little-endian in {@link EXTERNAL_DATA_FILE} after `padding` zero bytes, so
 * that the offset is read) → output `y`. Writes `model.onnx` and the weight file into `dir`.
 */
export async function writeExternalDataModel(dir: string, padding = 16): Promise<void> {
  const weights = new Float32Array(EXTERNAL_WEIGHTS);
  const model = new OnnxGraphBuilder('scaled')
    .input('x', 'FP32', [-1, 3])
    .initializer('weights', 'FP32', [3], weights)
    .node('Mul', ['x', 'weights'], ['y'])
    .output('y', 'FP32', [-1, 3])
    .toModelProto();
  const tensor = model.graph?.initializer?.[0];
  if (tensor === undefined) throw new Error('the builder made no initializer');
  delete tensor.rawData;
  tensor.dataLocation = onnx.TensorProto.DataLocation.EXTERNAL;
  tensor.externalData = [
    { key: 'location', value: EXTERNAL_DATA_FILE },
    { key: 'offset', value: String(padding) },
    { key: 'length', value: String(weights.byteLength) },
  ];
  const data = new Uint8Array(padding + weights.byteLength);
  data.set(new Uint8Array(weights.buffer), padding);
  await writeFile(join(dir, EXTERNAL_DATA_FILE), data);
  await writeFile(join(dir, 'model.onnx'), onnx.ModelProto.encode(model).finish());
}
