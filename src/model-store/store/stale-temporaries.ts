import { lstat, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { EXTRACTED_DIR_NAME, UNPACKING_DIR_PREFIX } from '../archive/archive-extractor.js';
import { isTemporarySiblingName } from '../../sdk/files/atomic-write.js';
import { SOURCE_WORK_DIR_PREFIX, SOURCES_DIR_NAME } from '../sources/source-dirs.js';
import { nodeErrorCode } from '../../sdk/files/error-facts.js';

/** Directory inside a store where downloads wait until they are unpacked or read; everything in it is temporary. */
export const DOWNLOADS_DIR_NAME = '.downloads';

/**
 * How long a temporary must have gone unchanged before a start removes it. Nothing keeps two servers from
 * sharing a store, so a start cannot tell a temporary a killed server left from one a running server is
 * still writing; one that nothing has been written to for this long belongs to no one.
 */
export const STALE_TEMPORARY_AGE_MS = 60 * 60 * 1000;

async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    const code = nodeErrorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/**
 * The temporaries Sluice makes in a model or workflow store, which a server killed at the wrong moment
 * leaves behind: directories archives are being unpacked into (`.extracted/.tmp-*`), downloads
 * (everything in `.downloads/`), object-store sources being downloaded (`.sources/.tmp-*`) and archives
 * being packed into the store (`.<name>.<pid>.<hex>.tmp`).
 */
export async function storeTemporaries(storeDir: string): Promise<string[]> {
  const extracted = join(storeDir, EXTRACTED_DIR_NAME);
  const downloads = join(storeDir, DOWNLOADS_DIR_NAME);
  const sources = join(storeDir, SOURCES_DIR_NAME);
  return [
    ...(await namesIn(sources)).filter((name) => name.startsWith(SOURCE_WORK_DIR_PREFIX)).map((name) => join(sources, name)),
    ...(await namesIn(extracted)).filter((name) => name.startsWith(UNPACKING_DIR_PREFIX)).map((name) => join(extracted, name)),
    ...(await namesIn(downloads)).map((name) => join(downloads, name)),
    ...(await namesIn(storeDir)).filter((name) => isTemporarySiblingName(name)).map((name) => join(storeDir, name)),
  ];
}

/** The temporary files an atomic write of `file` (the snapshot) leaves beside it when it is cut short. */
export async function temporariesBeside(file: string): Promise<string[]> {
  const dir = dirname(file);
  return (await namesIn(dir)).filter((name) => isTemporarySiblingName(name, basename(file))).map((name) => join(dir, name));
}

/** When anything in `path`'s tree (links not followed) last changed, in epoch milliseconds. */
async function lastChanged(path: string): Promise<number> {
  const info = await lstat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const name of await namesIn(path)) latest = Math.max(latest, await lastChanged(join(path, name)));
  return latest;
}

/** What {@link removeStaleTemporaries} did. */
export interface TemporariesSwept {
  readonly removed: readonly string[];
  readonly failed: readonly { readonly path: string; readonly error: unknown }[];
}

/**
 * Removes each of `paths` in whose tree nothing changed for `olderThanMs` (default
 * {@link STALE_TEMPORARY_AGE_MS}); younger ones may still be being written and are left. A path gone in
 * the meantime is skipped; one that cannot be removed is reported, not thrown.
 */
export async function removeStaleTemporaries(paths: readonly string[], olderThanMs = STALE_TEMPORARY_AGE_MS, now = Date.now()): Promise<TemporariesSwept> {
  const removed: string[] = [];
  const failed: { path: string; error: unknown }[] = [];
  for (const path of paths) {
    try {
      if (now - (await lastChanged(path)) < olderThanMs) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch (error) {
      if (nodeErrorCode(error) !== 'ENOENT') failed.push({ path, error });
    }
  }
  return { removed, failed };
}
