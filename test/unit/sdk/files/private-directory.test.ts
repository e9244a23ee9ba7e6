import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makePrivateDirectory } from '../../../../src/sdk/files/private-directory.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { permissionsOf } from '../../../support/file-mode.js';


describe('makePrivateDirectory', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('creates a missing .sluice folder and its parents 0700, and tells of no change', async () => {
    const made = await makePrivateDirectory(join(dir, 'app', '.sluice'));
    expect({ made, modes: await Promise.all([permissionsOf(join(dir, 'app')), permissionsOf(join(dir, 'app', '.sluice'))]) }).toEqual({ made: undefined, modes: ['700', '700'] });
  });

  it('makes an existing .sluice folder open to others 0700, and answers the mode it had', async () => {
    await mkdir(join(dir, '.sluice'));
    await chmod(join(dir, '.sluice'), 0o755);
    const made = await makePrivateDirectory(join(dir, '.sluice'));
    expect({ made: made?.toString(8), mode: await permissionsOf(join(dir, '.sluice')) }).toEqual({ made: '755', mode: '700' });
  });

  it('keeps the owner bits of the .sluice folder it makes private', async () => {
    await mkdir(join(dir, '.sluice'));
    await chmod(join(dir, '.sluice'), 0o570);
    await makePrivateDirectory(join(dir, '.sluice'));
    expect(await permissionsOf(join(dir, '.sluice'))).toBe('500');
  });

  it('leaves an existing .sluice folder that is private already as it is', async () => {
    await mkdir(join(dir, '.sluice'));
    await chmod(join(dir, '.sluice'), 0o700);
    expect({ made: await makePrivateDirectory(join(dir, '.sluice')), mode: await permissionsOf(join(dir, '.sluice')) }).toEqual({ made: undefined, mode: '700' });
  });

  it('leaves an existing folder of any other name open, as a shared working directory may be', async () => {
    await mkdir(join(dir, 'work'));
    await chmod(join(dir, 'work'), 0o755);
    expect({ made: await makePrivateDirectory(join(dir, 'work')), mode: await permissionsOf(join(dir, 'work')) }).toEqual({ made: undefined, mode: '755' });
  });
});
