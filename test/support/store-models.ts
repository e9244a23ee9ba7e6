import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

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
