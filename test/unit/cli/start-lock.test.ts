import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { takeStartLock } from '../../../src/cli/start-lock.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('the start lock of a config folder', () => {
  let lockFile = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    let dir: string;
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

  it('is held while its file holds no pid yet, as when the holder has not written it', async () => {
    await writeFile(lockFile, '');
    expect(await takeStartLock(lockFile)).toEqual({ kind: 'held', pid: undefined });
  });
});
