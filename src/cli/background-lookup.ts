import { readFile, rm, writeFile } from 'node:fs/promises';
import { readPidFile } from './pid-file.js';
import type { RunFiles } from './run-files.js';
import { isBackgroundServer } from './server-identity.js';

/** What `sluice stop` needs to know of a background server, kept beside its pid file. */
export interface RunRecord {
  readonly pid: number;
  readonly shutdownTimeoutMs: number;
}

/** What the run files of a config file's folder say about its background server. */
export type BackgroundLookup =
  | { readonly kind: 'running'; readonly pid: number; readonly shutdownTimeoutMs: number | undefined }
  /** No pid file. */
  | { readonly kind: 'none' }
  /**
   * A pid file whose process is gone or is no Sluice server, or that holds no pid (`pid` undefined); the run
   * files have been removed.
   */
  | { readonly kind: 'stale'; readonly pid: number | undefined };

async function readRecord(recordFile: string, pid: number): Promise<number | undefined> {
  try {
    const record = JSON.parse(await readFile(recordFile, 'utf8')) as Partial<RunRecord>;
    return record.pid === pid && typeof record.shutdownTimeoutMs === 'number' ? record.shutdownTimeoutMs : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the pid file and the run record of a background server just started. */
export async function writeRunFiles(files: RunFiles, record: RunRecord): Promise<void> {
  await writeFile(files.pidFile, `${record.pid}\n`);
  await writeFile(files.recordFile, `${JSON.stringify(record)}\n`);
}

/** Removes the pid file and run record (the log stays). */
export async function removeRunFiles(files: RunFiles): Promise<void> {
  await rm(files.pidFile, { force: true });
  await rm(files.recordFile, { force: true });
}

/**
 * Finds the background server whose run files are `files`: running (its process lives and is a Sluice
 * server), none, or stale (its run files, which point at a process that is gone or at an unrelated one,
 * are removed, so they neither block a new start nor lead a stop to the wrong process).
 */
export async function lookUpBackgroundServer(files: RunFiles): Promise<BackgroundLookup> {
  const pid = await readPidFile(files.pidFile);
  if (pid === null) return { kind: 'none' };
  if (pid !== undefined && isBackgroundServer(pid)) return { kind: 'running', pid, shutdownTimeoutMs: await readRecord(files.recordFile, pid) };
  await removeRunFiles(files);
  return { kind: 'stale', pid };
}

/** Says that no server runs for `files`, and how to find one started with another config file. */
export function notRunningText(files: RunFiles, lookup: BackgroundLookup): string {
  let why = `there is no ${files.pidFile}`;
  if (lookup.kind === 'stale') {
    why =
      lookup.pid === undefined
        ? `${files.pidFile} held no pid (the broken pid file was removed)`
        : `${files.pidFile} named pid ${lookup.pid}, which is no longer a Sluice server (the stale pid file was removed)`;
  }
  return `No Sluice server started with sluice start runs here: ${why}. A server started with --config FILE is found with --config FILE.\n`;
}
