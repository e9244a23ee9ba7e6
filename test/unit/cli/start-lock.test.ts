import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { takeStartLock, type StartLock } from '../../../src/cli/start-lock.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** The pid of a process that has exited. */
async function gonePid(): Promise<number> {
  const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => gone.once('exit', resolve));
  if (gone.pid === undefined) throw new Error('the child process was not started');
  return gone.pid;
}

describe('the start lock of a config folder', () => {
  let dir = '';
  let lockFile = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-lock-'));
    lockFile = join(dir, 'sluice.start.lock');
  });
  afterEach(() => cleanup());

  it('is taken once: a second taker is told the pid of the live holder', async () => {
    const first = await takeStartLock(lockFile);
    expect(first.kind).toBe('taken');
    expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    expect(await takeStartLock(lockFile)).toEqual({ kind: 'held', pid: process.pid });
  });

  it('is removed by release, and can then be taken again', async () => {
    const first = await takeStartLock(lockFile);
    if (first.kind === 'taken') await first.release();
    expect(existsSync(lockFile)).toBe(false);
    expect((await takeStartLock(lockFile)).kind).toBe('taken');
  });

  it('is taken over from a holder that is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => gone.once('exit', resolve));
    await writeFile(lockFile, `${gone.pid ?? 0}\n`);
    expect((await takeStartLock(lockFile)).kind).toBe('taken');
    expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('appears holding the pid of the process that took it, so a taker that finds it held can always name the holder', async () => {
    // A thread reads the file the moment it appears, synchronously and as fast as it can, while this one
    // takes the lock: a file created first and written afterwards would be read empty.
    const reader = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const { readFileSync } = require('node:fs');
       parentPort.postMessage('reading');
       const until = Date.now() + 10000;
       for (;;) {
         try { parentPort.postMessage(readFileSync(workerData, 'utf8')); break; } catch { if (Date.now() > until) { parentPort.postMessage(null); break; } }
       }`,
      { eval: true, workerData: lockFile },
    );
    const messages: (string | null)[] = [];
    const firstRead = new Promise<string | null>((resolve) =>
      reader.on('message', (message: string | null) => {
        messages.push(message);
        if (messages.length === 2) resolve(message);
      }),
    );
    await new Promise((resolve) => reader.once('message', resolve));
    const lock = await takeStartLock(lockFile);
    expect(lock.kind).toBe('taken');
    expect(await firstRead).toBe(`${process.pid}\n`);
    await reader.terminate();
  });

  it('is held while its file holds no pid, as a broken one does', async () => {
    await writeFile(lockFile, '');
    expect(await takeStartLock(lockFile)).toEqual({ kind: 'held', pid: undefined });
  });

  it('is taken over by one taker only when a second takes over the same gone holder meanwhile', async () => {
    await writeFile(lockFile, `${await gonePid()}\n`);
    let second: StartLock | undefined;
    const first = await takeStartLock(lockFile, async () => {
      second ??= await takeStartLock(lockFile);
    });
    expect(second?.kind).toBe('taken');
    expect(first).toEqual({ kind: 'held', pid: process.pid });
    expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('is taken over by exactly one of many takers that find the same gone holder at once', async () => {
    await writeFile(lockFile, `${await gonePid()}\n`);
    // Every taker finds the holder gone before any takes it over; then they go on a few ms apart.
    let found = 0;
    let allFound = (): void => undefined;
    const everyoneFound = new Promise<void>((resolve) => (allFound = resolve));
    const takeInTurn = async (): Promise<void> => {
      const turn = found++;
      if (found === 8) allFound();
      await everyoneFound;
      await new Promise((resolve) => setTimeout(resolve, turn * 5));
    };
    const locks = await Promise.all(Array.from({ length: 8 }, () => takeStartLock(lockFile, takeInTurn)));
    expect(locks.filter((lock) => lock.kind === 'taken')).toHaveLength(1);
    const refused = locks.flatMap((lock) => (lock.kind === 'held' ? [lock.pid] : []));
    expect(refused).toEqual(Array.from({ length: 7 }, () => process.pid));
  });

  it('is held while a live taker holds the takeover of its gone holder', async () => {
    const gone = await gonePid();
    await writeFile(lockFile, `${gone}\n`);
    await writeFile(`${lockFile}.takeover-${gone}`, `${process.pid}\n`);
    expect(await takeStartLock(lockFile)).toEqual({ kind: 'held', pid: process.pid });
    expect(await readFile(lockFile, 'utf8')).toBe(`${gone}\n`);
  });

  it('is taken over when the taker that held the takeover of its gone holder is gone too, leaving no takeover files', async () => {
    const gone = await gonePid();
    await writeFile(lockFile, `${gone}\n`);
    await writeFile(`${lockFile}.takeover-${gone}`, `${await gonePid()}\n`);
    expect((await takeStartLock(lockFile)).kind).toBe('taken');
    expect(await readFile(lockFile, 'utf8')).toBe(`${process.pid}\n`);
    expect(await readdir(dir)).toEqual(['sluice.start.lock']);
  });
});
