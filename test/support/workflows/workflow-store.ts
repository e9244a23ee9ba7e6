import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../../src/package-files/package-root.js';

/** The workflow store of a test server started in `dir` (`config.workflowStore`). */
export function workflowStoreOf(dir: string): string {
  return join(dir, 'workflows');
}

/** Copies files of the repository's example workflows (`workflows/`) into the workflow store of `dir`. */
export async function copyExampleWorkflows(dir: string, files: readonly string[]): Promise<void> {
  const store = workflowStoreOf(dir);
  await mkdir(store, { recursive: true });
  for (const file of files) await copyFile(join(packageRoot(), 'workflows', file), join(store, file));
}

/** Writes `text` as `file` into the workflow store of `dir` (replacing what was there). */
export async function writeWorkflowFile(dir: string, file: string, text: string): Promise<void> {
  const store = workflowStoreOf(dir);
  await mkdir(store, { recursive: true });
  await writeFile(join(store, file), text);
}
