import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTemporaries, STALE_TEMPORARY_AGE_MS, storeTemporaries, temporariesBeside } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';

let store: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: store, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

/** Writes `file` (and the folders it needs) with its and their times set `ageMs` in the past. */
async function writeAged(file: string, ageMs: number): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, 'bytes');
  const then = new Date(Date.now() - ageMs);
  await utimes(file, then, then);
  await utimes(join(file, '..'), then, then);
}

const OLD = STALE_TEMPORARY_AGE_MS + 60_000;

describe('storeTemporaries', () => {
  it('lists unpacking directories, downloads, object-store sources being downloaded and files being packed into the store, and nothing else', async () => {
    await writeAged(join(store, '.sources', '.tmp-def456', 'model.onnx'), 0);
    await writeAged(join(store, '.sources', 'iris-0123456789abcdef', 'model.onnx'), 0);
    await writeAged(join(store, '.extracted', '.tmp-abc123', 'model.onnx'), 0);
    await writeAged(join(store, '.extracted', 'iris-1.0-0123456789ab', 'model.onnx'), 0);
    await writeAged(join(store, '.downloads', '0123456789abcdef.sluice.0a1b2c3d4e5f.part'), 0);
    await writeAged(join(store, '.iris.sluice.4242.0a1b2c3d4e5f.tmp'), 0);
    await writeAged(join(store, 'iris', 'model.yaml'), 0);
    expect((await storeTemporaries(store)).sort()).toEqual(
      [
        join(store, '.downloads', '0123456789abcdef.sluice.0a1b2c3d4e5f.part'),
        join(store, '.extracted', '.tmp-abc123'),
        join(store, '.sources', '.tmp-def456'),
        join(store, '.iris.sluice.4242.0a1b2c3d4e5f.tmp'),
      ].sort(),
    );
  });

  it('lists nothing for a store that does not exist', async () => {
    expect(await storeTemporaries(join(store, 'nowhere'))).toEqual([]);
  });
});

describe('temporariesBeside', () => {
  it('lists the temporary files of an atomic write of the file, and no other file’s', async () => {
    await writeAged(join(store, '.snapshot.json.4242.0a1b2c3d4e5f.tmp'), 0);
    await writeAged(join(store, '.key_file.json.4242.0a1b2c3d4e5f.tmp'), 0);
    await writeAged(join(store, 'snapshot.json'), 0);
    expect(await temporariesBeside(join(store, 'snapshot.json'))).toEqual([join(store, '.snapshot.json.4242.0a1b2c3d4e5f.tmp')]);
  });
});

describe('removeStaleTemporaries', () => {
  it('removes a temporary nothing has changed in for STALE_TEMPORARY_AGE_MS', async () => {
    await writeAged(join(store, '.extracted', '.tmp-old', 'model.onnx'), OLD);
    expect(await removeStaleTemporaries([join(store, '.extracted', '.tmp-old')])).toEqual({ removed: [join(store, '.extracted', '.tmp-old')], failed: [] });
    expect(await readdir(join(store, '.extracted'))).toEqual([]);
  });

  it('keeps a temporary with a file written lately, though the directory itself is old: it may be another server’s, still being written', async () => {
    await writeAged(join(store, '.extracted', '.tmp-live', 'weights.bin'), OLD);
    await writeFile(join(store, '.extracted', '.tmp-live', 'weights.bin'), 'more bytes');
    const then = new Date(Date.now() - OLD);
    await utimes(join(store, '.extracted', '.tmp-live'), then, then);
    expect(await removeStaleTemporaries([join(store, '.extracted', '.tmp-live')])).toEqual({ removed: [], failed: [] });
    expect(await readdir(join(store, '.extracted', '.tmp-live'))).toEqual(['weights.bin']);
  });

  it('skips a temporary that is gone by the time it is looked at', async () => {
    expect(await removeStaleTemporaries([join(store, '.extracted', '.tmp-gone')])).toEqual({ removed: [], failed: [] });
  });
});
