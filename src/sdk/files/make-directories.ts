import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { nodeErrorCode } from './error-facts.js';

/** How {@link makeDirectories} creates the levels it makes. */
export interface MakeDirectoriesOptions {
  /** The mode of each directory it creates (before the umask); default 0o777. Existing ones keep theirs. */
  readonly mode?: number;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** `mkdir` of one level; true when it made `dir` or `dir` is already a directory, false on ENOENT. */
async function makeOneLevel(dir: string, mode: number): Promise<boolean> {
  try {
    await mkdir(dir, { mode });
    return true;
  } catch (error) {
    if (nodeErrorCode(error) === 'EEXIST' && (await isDirectory(dir))) return true;
    if (nodeErrorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

async function makeLevels(dir: string, mode: number): Promise<void> {
  if (await makeOneLevel(dir, mode)) return;
  const parent = dirname(dir);
  if (parent !== dir) {
    await makeLevels(parent, mode);
    if (await makeOneLevel(dir, mode)) return;
  }
  throw new Error(`cannot create the directory ${dir}: the filesystem of ${parent} makes no new directories there`);
}

/**
 * Creates `dir` and its missing parents, each level tried at most twice: once, and once more after its
 * parent was made. Not `mkdir(dir, { recursive: true })`: on a filesystem whose mkdir answers ENOENT
 * although the parent is there (/proc), Node's recursive mkdir retries without end on a thread of libuv's
 * pool and never settles; here such a refusal rejects with an Error naming the directory. Other failures
 * (EACCES, ENOTDIR, …) reject with Node's own error. Concurrent calls for the same levels all succeed.
 */
export function makeDirectories(dir: string, options: MakeDirectoriesOptions = {}): Promise<void> {
  return makeLevels(dir, options.mode ?? 0o777);
}
