import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-files/package-root.js';

/** Copies the demo iris model into `store` as `recorded`, served by the handler named `handler`. */
export async function addRecordedIris(store: string, handler = 'recording'): Promise<void> {
  const dir = join(store, 'recorded');
  await cp(join(packageRoot(), 'model-store', 'iris'), dir, { recursive: true });
  const manifest = await readFile(join(dir, 'model.yaml'), 'utf8');
  await writeFile(join(dir, 'model.yaml'), manifest.replace(/^name: iris$/m, 'name: recorded').replace(/^handler: classifier$/m, `handler: ${handler}`));
}
