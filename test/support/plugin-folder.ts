import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dump } from 'js-yaml';

/**
 * Writes a plugin folder as a third party would ship it: `sluice-plugin.yaml` from `manifest` (with the
 * usual defaults for version and Sluice range) and an `index.js` whose text is `source`.
 */
export async function writePluginFolder(dir: string, manifest: Readonly<Record<string, unknown>>, source: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'sluice-plugin.yaml'), dump({ version: '1.0.0', sluice: '>=0.1.0', provides: [], ...manifest }));
  await writeFile(join(dir, 'index.js'), source);
  return dir;
}
