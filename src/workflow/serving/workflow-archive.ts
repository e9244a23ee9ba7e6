import { lstat, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { SluiceError } from '../../sdk/errors/index.js';
import type { SluiceConfig } from '../../config/index.js';
import { extractArchive, packArchive, type ArchiveIdentity, type PackResult } from '../../model-store/index.js';
import { parseWorkflow } from '../index.js';
import { looksLikeTorchServeSpec, parseSpecYaml } from './torchserve/torchserve-spec.js';

/** The file at the root of a workflow directory or archive that holds the workflow. */
export const WORKFLOW_FILE_NAME = 'workflow.yaml';

/** Version a TorchServe spec is packed under: the spec format has none. */
const TORCHSERVE_SPEC_VERSION = '1';
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

function identityProblem(file: string, problem: string): SluiceError {
  return new SluiceError('SLUICE_WORKFLOW_INVALID', `${file}: ${problem}`, { file });
}

/**
 * The name and version a workflow directory is packed under: `metadata.name` and `metadata.version`
 * (default `1`) of its `workflow.yaml`, or, for a TorchServe spec, the directory's name and version `1`.
 */
export async function workflowArchiveIdentity(dir: string): Promise<ArchiveIdentity> {
  const file = join(resolve(dir), WORKFLOW_FILE_NAME);
  if (!(await isFile(file))) {
    throw new SluiceError('SLUICE_WORKFLOW_NOT_FOUND', `${dir}: holds no ${WORKFLOW_FILE_NAME}; a workflow directory keeps its workflow in ${WORKFLOW_FILE_NAME}`, {
      file,
    });
  }
  const text = await readFile(file, 'utf8');
  if (looksLikeTorchServeSpec(parseSpecYaml(text, file))) {
    const name = basename(resolve(dir));
    if (!NAME_PATTERN.test(name)) throw identityProblem(file, `the directory name ${JSON.stringify(name)} cannot name a workflow; rename the directory`);
    return { name, version: TORCHSERVE_SPEC_VERSION, kind: 'workflow' };
  }
  const metadata = parseWorkflow(text, { file }).document['metadata'];
  const record = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>) : {};
  const { name, version = TORCHSERVE_SPEC_VERSION } = record;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) throw identityProblem(file, '`metadata.name` is missing or not a workflow name; set it before packing');
  if (typeof version !== 'string' || !NAME_PATTERN.test(version)) throw identityProblem(file, '`metadata.version` is not a version string; quote it, e.g. "1.0"');
  return { name, version, kind: 'workflow' };
}

/**
 * Packs a workflow directory (`workflow.yaml` plus what it brings, such as a TorchServe spec's function
 * module) into a `.sluice` workflow archive. The workflow is validated when it is registered, against the
 * models and handlers of that server.
 */
export async function packWorkflowArchive(dir: string, outFile: string): Promise<PackResult> {
  return packArchive(dir, outFile, await workflowArchiveIdentity(dir));
}

/**
 * Unpacks a workflow archive into the workflow store's `.extracted/` (checked entry by entry, nothing left
 * behind on failure) and answers the directory, which holds `workflow.yaml` at its root.
 */
export function extractWorkflowArchive(archive: string, config: SluiceConfig): Promise<string> {
  return extractArchive(
    archive,
    {
      kind: 'workflow',
      rootDir: config.workflowStore,
      rootLabel: 'the workflow store',
      rootKey: 'workflowStore',
      check: async (workDir, _manifest, name) => {
        if (!(await isFile(join(workDir, WORKFLOW_FILE_NAME)))) {
          throw new SluiceError('SLUICE_ARCHIVE_INVALID', `${name}: has no ${WORKFLOW_FILE_NAME} at its root; pack the workflow directory with \`sluice archive\``, {
            archive: name,
          });
        }
      },
    },
    config.archive,
  );
}
