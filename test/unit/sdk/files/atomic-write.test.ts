import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { writeFileAtomic } from '../../../../src/sdk/files/atomic-write.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { permissionsOf } from '../../../support/file-mode.js';


describe('writeFileAtomic', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('replaces a file with the new content and leaves nothing else beside it', async () => {
    const file = join(dir, 'data.json');
    await writeFileAtomic(file, 'old');
    await writeFileAtomic(file, 'new');
    expect({ text: await readFile(file, 'utf8'), files: await readdir(dir) }).toEqual({ text: 'new', files: ['data.json'] });
  });

  it('gives the file exactly the mode asked for, whatever the umask', async () => {
    const file = join(dir, 'keys.json');
    const umask = process.umask(0o277);
    try {
      await writeFileAtomic(file, 'secret', { mode: 0o600 });
    } finally {
      process.umask(umask);
    }
    expect(await permissionsOf(file)).toBe('600');
  });

  it('leaves no temporary file behind when the write fails', async () => {
    // A directory in the way: the temporary file is written, and renaming it over the directory fails.
    await mkdir(join(dir, 'taken', 'inside'), { recursive: true });
    await expect(writeFileAtomic(join(dir, 'taken'), 'x')).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(await readdir(dir)).toEqual(['taken']);
  });
});
