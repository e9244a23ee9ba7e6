import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadManifest } from '../../../../src/model-store/index.js';
import { IRIS_MANIFEST, writeIrisModel } from '../../../support/model-fixture.js';
import { makeTempDir } from '../../../support/temp-dir.js';

describe('manifest defaults from the server configuration', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    await writeIrisModel(dir);
  });
  afterEach(async () => {
    await cleanup();
  });

  it('takes workers.min from the server default when the manifest gives none', async () => {
    expect((await loadManifest(dir, { workers: 3 })).workers).toMatchObject({ min: 3, max: 3 });
  });

  it('keeps the manifest workers.min over the server default', async () => {
    await writeFile(join(dir, 'model.yaml'), `${IRIS_MANIFEST}workers: { min: 2 }\n`);
    expect((await loadManifest(dir, { workers: 5 })).workers).toMatchObject({ min: 2, max: 2 });
  });

  it('caps the server default at the manifest workers.max', async () => {
    await writeFile(join(dir, 'model.yaml'), `${IRIS_MANIFEST}workers: { max: 2 }\n`);
    expect((await loadManifest(dir, { workers: 4 })).workers).toMatchObject({ min: 2, max: 2 });
  });

  it('starts one worker without a server default', async () => {
    expect((await loadManifest(dir)).workers).toMatchObject({ min: 1, max: 1 });
  });
});
