import { open, rm } from 'node:fs/promises';
import { readPidFile } from './pid-file.js';

/** What taking the start lock of a config folder came to. */
export type StartLock =
  | { readonly kind: 'taken'; release(): Promise<void> }
  /** Another live process holds it; `pid` undefined when its lock file holds none yet (it is being written). */
  | { readonly kind: 'held'; readonly pid: number | undefined };

/** Whether process `pid` exists (one of another user counts: it holds the lock all the same). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates `lockFile` holding this process's pid, unless it exists; true when it was created. */
async function createExclusively(lockFile: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockFile, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${process.pid}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Takes the lock that lets one `sluice start` at a time start a background server for a config folder:
 * `lockFile` created exclusively, holding this process's pid, until `release()`. A lock whose process is
 * gone (a start killed before it could release it) is taken over; one of a live process, or one that holds
 * no pid yet (being written this moment), is `held`. Other errors of creating the file (a folder that is
 * not writable) are thrown.
 */
export async function takeStartLock(lockFile: string): Promise<StartLock> {
  const taken: StartLock = {
    kind: 'taken',
    release: () => rm(lockFile, { force: true }),
  };
  if (await createExclusively(lockFile)) return taken;
  const holder = await readPidFile(lockFile);
  if (holder === undefined || (holder !== null && alive(holder))) return { kind: 'held', pid: holder };
  // Gone: once removed, whoever creates it first holds it.
  await rm(lockFile, { force: true });
  if (await createExclusively(lockFile)) return taken;
  return { kind: 'held', pid: (await readPidFile(lockFile)) ?? undefined };
}
