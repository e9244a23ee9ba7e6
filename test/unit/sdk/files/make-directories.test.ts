import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeDirectories } from '../../../../src/sdk/files/make-directories.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { permissionsOf } from '../../../support/file-mode.js';

/** Longer than any mkdir here takes; a retry without end fails the test instead of blocking the run. */
const HANG_LIMIT_MS = 5_000;


describe('makeDirectories', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('creates every missing level', async () => {
    await makeDirectories(join(dir, 'a', 'b', 'c'));
    expect((await stat(join(dir, 'a', 'b', 'c'))).isDirectory()).toBe(true);
  });

  it('gives every level it creates the mode asked for', async () => {
    await makeDirectories(join(dir, 'a', 'b'), { mode: 0o700 });
    expect(await Promise.all([permissionsOf(join(dir, 'a')), permissionsOf(join(dir, 'a', 'b'))])).toEqual(['700', '700']);
  });

  it('leaves a directory that exists as it is', async () => {
    await mkdir(join(dir, 'open'), { mode: 0o755 });
    await makeDirectories(join(dir, 'open'), { mode: 0o700 });
    expect(await permissionsOf(join(dir, 'open'))).toBe('755');
  });

  it('lets concurrent calls create the same levels', async () => {
    const target = join(dir, 'x', 'y', 'z');
    await Promise.all([makeDirectories(target), makeDirectories(target), makeDirectories(target)]);
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  it("rejects with Node's own error when a level is a file", async () => {
    await writeFile(join(dir, 'file'), '');
    await expect(makeDirectories(join(dir, 'file', 'below'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('refuses a directory under /proc, naming it, instead of retrying without end', async () => {
    await expect(makeDirectories('/proc/sluice-state/nested')).rejects.toThrow(
      new Error('cannot create the directory /proc/sluice-state: the filesystem of /proc makes no new directories there'),
    );
  }, HANG_LIMIT_MS);

  it('refuses a missing directory right under /proc too', async () => {
    await expect(makeDirectories('/proc/sluice-state')).rejects.toThrow(
      new Error('cannot create the directory /proc/sluice-state: the filesystem of /proc makes no new directories there'),
    );
  }, HANG_LIMIT_MS);
});
