import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveStoreUrl } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';

let root: string;
let store: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  store = join(root, 'store');
  await mkdir(join(store, 'iris', '1.0'), { recursive: true });
  await writeFile(join(store, 'iris', '1.0', 'model.yaml'), 'name: iris\n');
  await mkdir(join(store, 'iris', '2.0'), { recursive: true });
  await writeFile(join(store, 'iris', '2.0', 'model.yaml'), 'name: iris\n');
  await writeFile(join(store, 'resnet.sluice'), '');
  // A model outside the store that traversal attempts aim at.
  await mkdir(join(root, 'secret'));
  await writeFile(join(root, 'secret', 'model.yaml'), 'name: secret\n');
});
afterEach(async () => {
  await cleanup();
});

const ACCEPTED =
  'only names of entries directly inside the model store (such as iris or iris.sluice) or http(s) URLs that match the allowed URL patterns are accepted';

describe('resolveStoreUrl', () => {
  it('resolves a directory name to all its versions', async () => {
    expect(await resolveStoreUrl(store, 'iris')).toEqual([
      { source: 'directory', path: join(store, 'iris', '1.0'), storeName: 'iris' },
      { source: 'directory', path: join(store, 'iris', '2.0'), storeName: 'iris' },
    ]);
  });

  it('resolves an archive name', async () => {
    expect(await resolveStoreUrl(store, 'resnet.sluice')).toEqual([
      { source: 'archive', path: join(store, 'resnet.sluice'), storeName: 'resnet.sluice' },
    ]);
  });

  it('lists the store when the name is unknown', async () => {
    await expect(resolveStoreUrl(store, 'bert')).rejects.toMatchObject({
      code: 'SLUICE_MANIFEST_NOT_FOUND',
      message:
        'url "bert" names no model in the model store (the store has: iris, resnet.sluice); pass one of these names, or put the model directory or .sluice archive into the store first',
    });
  });

  const refused: ReadonlyArray<readonly [string, string]> = [
    ['', 'is empty'],
    ['../secret', 'contains a path separator'],
    ['..', "contains '..'"],
    ['iris/../../secret', 'contains a path separator'],
    ['iris\\..\\..\\secret', 'contains a path separator'],
    ['/etc/passwd', 'is an absolute path'],
    ['\\\\server\\share', 'is an absolute path'],
    ['C:\\models\\iris', 'is an absolute path'],
    ['file:///etc/passwd', 'has a URL scheme that is not allowed here'],
    ['s3://bucket/iris.sluice', 'has a URL scheme that is not allowed here'],
    ['http://example.com/iris.sluice', 'has a URL scheme that is not allowed here'],
    ['%2e%2e%2fsecret', 'contains percent-encoding'],
    ['..%2fsecret', 'contains percent-encoding'],
    ['iris%00', 'contains percent-encoding'],
    ['iris\0', 'contains a NUL byte'],
    ['.extracted', "starts with '.'"],
    ['iris..sluice', "contains '..'"],
    ['-rf', 'contains characters that are not allowed in a store name'],
    ['iris model', 'contains characters that are not allowed in a store name'],
  ];

  it.each(refused)('refuses %j', async (url, reason) => {
    await expect(resolveStoreUrl(store, url)).rejects.toMatchObject({
      code: 'SLUICE_MANAGEMENT_URL_NOT_ALLOWED',
      message: `url ${JSON.stringify(url)} ${reason}; ${ACCEPTED}`,
    });
  });
});
