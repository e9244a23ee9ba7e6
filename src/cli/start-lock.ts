import { link, open, rm, writeFile } from 'node:fs/promises';
import { readPidFile } from './pid-file.js';

/** What taking the start lock of a config folder came to. */
export type StartLock =
  | { readonly kind: 'taken'; release(): Promise<void> }
  /** Another live process holds it; `pid` undefined when its lock file holds none (see {@link takeStartLock}). */
  | { readonly kind: 'held'; readonly pid: number | undefined };

/** Called with the pid of a lock's holder that is gone, just before its lock is taken over. */
export type BeforeTakeover = (gonePid: number) => Promise<void>;

/** Whether process `pid` exists (one of another user counts: it holds the lock all the same). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Errors of `link` on a file system without hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** Creates `lockFile` exclusively and then writes the pid into it: two steps, for file systems without hard links. */
async function createThenWrite(lockFile: string): Promise<boolean> {
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
 * Creates `lockFile` holding this process's pid, unless it exists; true when it was created. The pid is
 * written to a file of this process's own first and linked into place, so the lock file appears whole: a
 * taker never finds it empty, and so never has to refuse a start without naming the holder. Where the file
 * system has no hard links, the file is created and then written.
 */
async function createExclusively(lockFile: string): Promise<boolean> {
  const written = `${lockFile}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  await writeFile(written, `${process.pid}\n`, { flag: 'wx' });
  try {
    await link(written, lockFile);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') return false;
    if (NO_HARD_LINKS.has(code)) return await createThenWrite(lockFile);
    throw error;
  } finally {
    await rm(written, { force: true });
  }
}

function taken(lockFile: string): StartLock {
  return { kind: 'taken', release: () => rm(lockFile, { force: true }) };
}

/**
 * Takes the lock that lets one `sluice start` at a time start a background server for a config folder:
 * `lockFile` created exclusively, holding this process's pid, until `release()`. A lock whose process is
 * gone (a start killed before it could release it) is taken over; one of a live process, or one that holds
 * no pid (broken, or being written in two steps on a file
 * system without hard links), is `held`. Takers that find the same gone holder at once are
 * ordered by its takeover lock (`<lockFile>.takeover-<pid>`, taken the same way), so exactly one of them
 * takes the lock over and the others are told it is `held`. Other errors of creating the file (a folder
 * that is not writable) are thrown. `beforeTakeover` lets tests interleave takers.
 */
export async function takeStartLock(lockFile: string, beforeTakeover: BeforeTakeover = () => Promise.resolve()): Promise<StartLock> {
  if (await createExclusively(lockFile)) return taken(lockFile);
  const holder = await readPidFile(lockFile);
  // Released between our attempt and the read: try again from the start.
  if (holder === null) return takeStartLock(lockFile, beforeTakeover);
  if (holder === undefined || alive(holder)) return { kind: 'held', pid: holder };
  await beforeTakeover(holder);
  // Removing a gone holder's file and creating our own are two steps; only the holder of its takeover
  // lock takes them, so a second taker cannot remove the lock the first has just created.
  const takeover = await takeStartLock(`${lockFile}.takeover-${holder}`, beforeTakeover);
  if (takeover.kind === 'held') return takeover;
  try {
    const current = await readPidFile(lockFile);
    // Someone took it over (or released it) before we held the takeover lock: look again.
    if (current !== holder) return await takeStartLock(lockFile, beforeTakeover);
    await rm(lockFile, { force: true });
    if (await createExclusively(lockFile)) return taken(lockFile);
    return { kind: 'held', pid: (await readPidFile(lockFile)) ?? undefined };
  } finally {
    await takeover.release();
  }
}
