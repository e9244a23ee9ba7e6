import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeKeyDirectory } from '../../../../plugins/token-auth/key-directory.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { permissionsOf } from '../../../support/file-mode.js';


describe('the key file directory', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('creates every missing level with mode 0700', async () => {
    await makeKeyDirectory(join(dir, 'a', 'b', 'c'));
    expect(await Promise.all([permissionsOf(join(dir, 'a')), permissionsOf(join(dir, 'a', 'b')), permissionsOf(join(dir, 'a', 'b', 'c'))])).toEqual(['700', '700', '700']);
  });

  it('leaves a directory that exists as it is', async () => {
    await mkdir(join(dir, 'open'), { mode: 0o755 });
    await makeKeyDirectory(join(dir, 'open'));
    expect(await permissionsOf(join(dir, 'open'))).toBe('755');
  });

  it('lets concurrent calls create the same levels', async () => {
    const target = join(dir, 'x', 'y');
    await Promise.all([makeKeyDirectory(target), makeKeyDirectory(target), makeKeyDirectory(target)]);
    expect((await stat(target)).isDirectory()).toBe(true);
  });

  it('refuses a directory under /proc, naming it, instead of retrying without end', async () => {
    await expect(makeKeyDirectory('/proc/sluice-keys/nested')).rejects.toThrow('cannot create the directory /proc/sluice-keys: the filesystem of /proc makes no new directories there');
  }, 5_000);
});
