import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadManifest, packModelArchive } from '../model-store/index.js';
import { UsageError } from './cli-errors.js';

/** `sluice archive <model-dir> [-o FILE]`: packs a model directory into a `.sluice` archive. */
export async function runArchive(args: readonly string[], cwd: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { output: { type: 'string', short: 'o' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; usage: sluice archive <model-dir> [-o FILE]`);
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined || extra.length > 0) throw new UsageError('usage: sluice archive <model-dir> [-o FILE]');
  const modelDir = resolve(cwd, dir);
  const manifest = await loadManifest(modelDir);
  const out = resolve(cwd, parsed.values.output ?? `${manifest.name}-${manifest.version}.sluice`);
  const result = await packModelArchive(modelDir, out);
  process.stdout.write(`Packed ${result.name} ${result.version} (${result.files.length} files, ${result.bytes} bytes) into ${out}\n`);
  return 0;
}
