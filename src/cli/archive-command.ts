import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadManifest, packModelArchive, type PackResult } from '../model-store/index.js';
import { packWorkflowArchive, WORKFLOW_FILE_NAME, workflowArchiveIdentity } from '../workflow/serving/workflow-archive.js';
import { UsageError } from './cli-errors.js';

const USAGE = 'usage: sluice archive <model-dir | workflow-dir> [-o FILE]';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Packs `dir` as a workflow when it holds `workflow.yaml` and no `model.yaml`, else as a model. */
async function pack(dir: string, output: string | undefined, cwd: string): Promise<{ result: PackResult; out: string }> {
  if ((await exists(join(dir, WORKFLOW_FILE_NAME))) && !(await exists(join(dir, 'model.yaml')))) {
    const identity = await workflowArchiveIdentity(dir);
    const out = resolve(cwd, output ?? `${identity.name}-${identity.version}.sluice`);
    return { result: await packWorkflowArchive(dir, out), out };
  }
  const manifest = await loadManifest(dir);
  const out = resolve(cwd, output ?? `${manifest.name}-${manifest.version}.sluice`);
  return { result: await packModelArchive(dir, out), out };
}

/**
 * `sluice archive <dir> [-o FILE]`: packs a model directory (`model.yaml`) or a workflow directory
 * (`workflow.yaml` and what it brings) into a `.sluice` archive.
 */
export async function runArchive(args: readonly string[], cwd: string): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { output: { type: 'string', short: 'o' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; ${USAGE}`);
  }
  const [dir, ...extra] = parsed.positionals;
  if (dir === undefined || extra.length > 0) throw new UsageError(USAGE);
  const { result, out } = await pack(resolve(cwd, dir), parsed.values.output, cwd);
  process.stdout.write(`Packed ${result.name} ${result.version} (${result.files.length} files, ${result.bytes} bytes) into ${out}\n`);
  return 0;
}
