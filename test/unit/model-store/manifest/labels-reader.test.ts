import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readLabels } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

describe('readLabels', () => {
  it('reads one label per line', async () => {
    await writeFile(join(root, 'labels.txt'), 'setosa\nversicolor\nvirginica');
    expect(await readLabels(join(root, 'labels.txt'))).toEqual(['setosa', 'versicolor', 'virginica']);
  });

  it('ignores trailing blank lines', async () => {
    await writeFile(join(root, 'labels.txt'), 'a\nb\n\n  \n');
    expect(await readLabels(join(root, 'labels.txt'))).toEqual(['a', 'b']);
  });

  it('keeps blank lines between labels so that indexes stay right', async () => {
    await writeFile(join(root, 'labels.txt'), 'a\n\nc\n');
    expect(await readLabels(join(root, 'labels.txt'))).toEqual(['a', '', 'c']);
  });

  it('reads Windows line endings', async () => {
    await writeFile(join(root, 'labels.txt'), 'a\r\nb\r\n');
    expect(await readLabels(join(root, 'labels.txt'))).toEqual(['a', 'b']);
  });

  it('reports a missing file', async () => {
    const path = join(root, 'missing.txt');
    await expect(readLabels(path)).rejects.toMatchObject({
      code: 'SLUICE_MANIFEST_NOT_FOUND',
      message: `${path}: labels file cannot be read (ENOENT); restore it or remove \`labels\` from model.yaml`,
    });
  });
});
