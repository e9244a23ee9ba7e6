import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { lookUpBackgroundServer, writeRunFiles } from '../../../src/cli/background-lookup.js';
import { runFiles, type RunFiles } from '../../../src/cli/run-files.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('finding the background server of a config folder', () => {
  let files: RunFiles;
  let cleanup: () => Promise<void> = () => Promise.resolve();
  let other: ChildProcess | undefined;
  beforeEach(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir('sluice-run-'));
    files = runFiles(dir);
    await mkdir(files.dir);
  });
  afterEach(async () => {
    other?.kill('SIGKILL');
    other = undefined;
    await cleanup();
  });

  it('finds none without a pid file', async () => {
    expect(await lookUpBackgroundServer(files)).toEqual({ kind: 'none' });
  });

  it('takes a pid file naming a live process that is no Sluice server as stale, and removes it without touching the process', async () => {
    other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = other.pid ?? 0;
    await writeRunFiles(files, { pid, shutdownTimeoutMs: 1000 });
    expect(await lookUpBackgroundServer(files)).toEqual({ kind: 'stale', pid });
    expect(existsSync(files.pidFile)).toBe(false);
    expect(existsSync(files.recordFile)).toBe(false);
    expect(other.exitCode).toBeNull();
    expect(other.signalCode).toBeNull();
  });

  it('takes a pid file that holds no pid as stale, and removes it', async () => {
    await writeFile(files.pidFile, '-1\n');
    expect(await lookUpBackgroundServer(files)).toEqual({ kind: 'stale', pid: undefined });
    expect(existsSync(files.pidFile)).toBe(false);
  });

  it('takes a pid file naming a process that is gone as stale', async () => {
    other = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = other.pid ?? 0;
    await new Promise((resolve) => other?.once('exit', resolve));
    await writeFile(files.pidFile, `${pid}\n`);
    expect(await lookUpBackgroundServer(files)).toEqual({ kind: 'stale', pid });
    expect(existsSync(files.pidFile)).toBe(false);
  });
});
