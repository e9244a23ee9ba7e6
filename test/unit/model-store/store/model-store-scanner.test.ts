import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scanModelStore } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { makeUnreadableDirectory } from '../../../support/unreadable-directory.js';

let store: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: store, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

async function manifestAt(...parts: string[]): Promise<void> {
  await mkdir(join(store, ...parts), { recursive: true });
  await writeFile(join(store, ...parts, 'model.yaml'), 'name: m\n');
}

describe('scanModelStore', () => {
  it('finds a model directory', async () => {
    await manifestAt('iris');
    expect(await scanModelStore(store)).toEqual([{ source: 'directory', path: join(store, 'iris'), storeName: 'iris' }]);
  });

  it('finds version directories side by side under one store name', async () => {
    await manifestAt('iris', '1.0');
    await manifestAt('iris', '2.0');
    expect(await scanModelStore(store)).toEqual([
      { source: 'directory', path: join(store, 'iris', '1.0'), storeName: 'iris' },
      { source: 'directory', path: join(store, 'iris', '2.0'), storeName: 'iris' },
    ]);
  });

  it('finds a directory holding model.onnx and no manifest, under its name', async () => {
    await mkdir(join(store, 'adder'));
    await writeFile(join(store, 'adder', 'model.onnx'), '');
    expect(await scanModelStore(store)).toEqual([{ source: 'model-file', path: join(store, 'adder'), storeName: 'adder' }]);
  });

  it('reads a directory holding both model.yaml and model.onnx by its manifest', async () => {
    await manifestAt('iris');
    await writeFile(join(store, 'iris', 'model.onnx'), '');
    expect(await scanModelStore(store)).toEqual([{ source: 'directory', path: join(store, 'iris'), storeName: 'iris' }]);
  });

  it('finds archives by their file name', async () => {
    await writeFile(join(store, 'resnet.sluice'), '');
    expect(await scanModelStore(store)).toEqual([{ source: 'archive', path: join(store, 'resnet.sluice'), storeName: 'resnet.sluice' }]);
  });

  it('skips dot-directories such as .extracted', async () => {
    await manifestAt('.extracted', 'iris-1.0-abcdef012345');
    await manifestAt('.hidden');
    expect(await scanModelStore(store)).toEqual([]);
  });

  it('skips directories without a manifest and other files', async () => {
    await mkdir(join(store, 'notes', 'drafts'), { recursive: true });
    await writeFile(join(store, 'README.md'), 'hello');
    await writeFile(join(store, '.sluice'), '');
    expect(await scanModelStore(store)).toEqual([]);
  });

  it('takes a top-level manifest over subdirectories of the same model', async () => {
    await manifestAt('bert');
    await manifestAt('bert', 'tokenizer');
    expect(await scanModelStore(store)).toEqual([{ source: 'directory', path: join(store, 'bert'), storeName: 'bert' }]);
  });

  it('refuses a store that does not exist', async () => {
    await expect(scanModelStore(join(store, 'missing'))).rejects.toMatchObject({
      code: 'SLUICE_CONFIG_INVALID',
      message: `${join(store, 'missing')}: the model store is not a directory; create it or point modelStore at an existing directory`,
    });
  });

  it('lists an entry it may not look into, so that loading it says what cannot be read', async () => {
    await manifestAt('iris');
    const restore = await makeUnreadableDirectory(join(store, 'locked'));
    try {
      expect(await scanModelStore(store)).toEqual([
        { source: 'directory', path: join(store, 'iris'), storeName: 'iris' },
        { source: 'directory', path: join(store, 'locked'), storeName: 'locked' },
      ]);
    } finally {
      await restore();
    }
  });

  it('lists a version directory it may not look into beside the readable ones', async () => {
    await manifestAt('iris', '1.0');
    await mkdir(join(store, 'iris'), { recursive: true });
    const restore = await makeUnreadableDirectory(join(store, 'iris', '2.0'));
    try {
      expect(await scanModelStore(store)).toEqual([
        { source: 'directory', path: join(store, 'iris', '1.0'), storeName: 'iris' },
        { source: 'directory', path: join(store, 'iris', '2.0'), storeName: 'iris' },
      ]);
    } finally {
      await restore();
    }
  });

  it('refuses a store it may not read, naming it and what to do', async () => {
    const locked = join(store, 'locked');
    const restore = await makeUnreadableDirectory(locked);
    try {
      await expect(scanModelStore(locked)).rejects.toMatchObject({
        code: 'SLUICE_CONFIG_INVALID',
        message: expect.stringMatching(
          new RegExp(`^${locked}: the model store cannot be read \\(EACCES: permission denied, scandir '[^']+'\\); make it readable by the user Sluice runs as, or point modelStore at another directory$`),
        ) as unknown,
      });
    } finally {
      await restore();
    }
  });
});
