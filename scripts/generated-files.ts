import { realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A generated file: its path relative to the output directory, and its content. */
export type GeneratedFile = readonly [string, string | Uint8Array];

/** Writes `files` under `outDir` (creating folders) and returns the absolute paths written, in order. */
export async function writeGeneratedFiles(outDir: string, files: readonly GeneratedFile[]): Promise<string[]> {
  const written: string[] = [];
  for (const [relativePath, content] of files) {
    const path = resolve(outDir, relativePath);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    written.push(path);
  }
  return written;
}

/** True when Node was started on the module at `moduleUrl` (directly or through a symlink), not when it is imported. */
export function isEntryScript(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
