import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

const MODE = 0o700;

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** `mkdir` of one level; true when it made `dir` or `dir` is already a directory. */
async function makeOneLevel(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { mode: MODE });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST' && (await isDirectory(dir))) return true;
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Creates `dir` and its missing parents (mode 0700), each made at most twice: once, and once more after
 * its parent was made. Not `mkdir(dir, { recursive: true })`: on a filesystem whose mkdir answers ENOENT
 * although the parent is there (/proc), Node's recursive mkdir retries without end on a thread of libuv's
 * pool and never settles; here such a refusal is an error naming the directory.
 */
export async function makeKeyDirectory(dir: string): Promise<void> {
  if (await makeOneLevel(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) {
    await makeKeyDirectory(parent);
    if (await makeOneLevel(dir)) return;
  }
  throw new Error(`cannot create the directory ${dir}: the filesystem of ${parent} makes no new directories there`);
}
