import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeIdentityModel } from './onnx-models.js';

/**
 * Writes a model version into a model store: `<store>/<dirName>/` with the model file made by `write`
 * and a `model.yaml` holding `manifest` (JSON is valid YAML) plus the model file's name.
 */
export async function addStoreModel(
  store: string,
  dirName: string,
  write: (dir: string) => Promise<string>,
  manifest: Readonly<Record<string, unknown>>,
): Promise<string> {
  const dir = join(store, dirName);
  await mkdir(dir, { recursive: true });
  const modelPath = await write(dir);
  await writeFile(join(dir, 'model.yaml'), JSON.stringify({ model: basename(modelPath), ...manifest }, null, 2));
  return dir;
}

/**
 * Adds the identity models the Open Inference Protocol tests (REST and gRPC) echo tensors through:
 * `echo-bytes` (BYTES, [-1]), `echo-fp16` (FP16, [-1, 2]), `echo-fp32` (FP32, [-1, -1]) and `echo-int64`
 * (INT64, [-1]), version 1 each.
 */
export async function addEchoModels(store: string): Promise<void> {
  await addStoreModel(store, 'echo-bytes', (dir) => writeIdentityModel(dir, 'BYTES', [-1]), { name: 'echo-bytes', version: '1' });
  await addStoreModel(store, 'echo-fp16', (dir) => writeIdentityModel(dir, 'FP16', [-1, 2]), { name: 'echo-fp16', version: '1' });
  await addStoreModel(store, 'echo-fp32', (dir) => writeIdentityModel(dir, 'FP32', [-1, -1]), { name: 'echo-fp32', version: '1' });
  await addStoreModel(store, 'echo-int64', (dir) => writeIdentityModel(dir, 'INT64', [-1]), { name: 'echo-int64', version: '1' });
}
