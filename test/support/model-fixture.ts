import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A small iris-like manifest; the model file is a placeholder, never run. */
export const IRIS_MANIFEST = `name: iris
version: "1.0"
description: Iris species classifier
model: model.onnx
labels: labels.txt
inputs:
  - name: input
    datatype: FP32
    shape: [-1, 4]
outputs:
  - name: probabilities
    datatype: FP32
    shape: [-1, 3]
batching:
  maxBatchSize: 8
  maxBatchDelayMs: 0.5
`;

/** Writes an iris-like model directory (manifest, placeholder model file, labels) into `dir`. */
export async function writeIrisModel(dir: string, manifest: string = IRIS_MANIFEST): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'model.yaml'), manifest);
  await writeFile(join(dir, 'model.onnx'), Buffer.from('not really onnx, only bytes to carry around'));
  await writeFile(join(dir, 'labels.txt'), 'setosa\nversicolor\nvirginica\n');
  return dir;
}
