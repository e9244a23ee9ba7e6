import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { nodeErrorCode } from './error-facts.js';

/**
 * A fresh temporary name next to `path`, hidden (leading dot) so that directory scans skip it
 * and in the same directory so that renaming it over `path` is atomic.
 */
export function temporarySibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Whether `name` is one of {@link temporarySibling}'s names: of a file `of` when given, else of any. */
export function isTemporarySiblingName(name: string, of?: string): boolean {
  if (!/^\..+\.\d+\.[0-9a-f]{12}\.tmp$/.test(name)) return false;
  return of === undefined || name.startsWith(`.${of}.`);
}

/** Flushes a file's data to disk. */
export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Flushes a directory entry (a rename into it) to disk. Platforms that cannot open or sync a
 * directory (Windows) are skipped: there the rename itself is the best available guarantee.
 */
export async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Replaces `path` with `data` so that a crash leaves either the old or the new content: writes a
 * temporary file in the same directory, syncs it, renames it over `path`, syncs the directory.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = temporarySibling(path);
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}
