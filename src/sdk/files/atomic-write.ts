import { randomBytes } from 'node:crypto';
import { chmod, open, rename, rm } from 'node:fs/promises';
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

/** How {@link writeFileAtomic} writes. */
export interface WriteFileAtomicOptions {
  /**
   * The file's permission bits (default 0644, less the umask). Given, the file has exactly these bits,
   * whatever the umask, from its creation on: a file of secrets is never readable by others, not even
   * for a moment.
   */
  readonly mode?: number;
}

/**
 * Replaces `path` with `data` so that a crash leaves either the old or the new content: writes a
 * temporary file in the same directory, syncs it, renames it over `path`, syncs the directory. A failed
 * write leaves no temporary file behind.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): Promise<void> {
  const temp = temporarySibling(path);
  try {
    const handle = await open(temp, 'wx', options.mode ?? 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The umask may have taken bits from the mode it was created with.
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dirname(path));
}
