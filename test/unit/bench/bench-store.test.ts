import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readManifestBatching } from '../../../bench/bench-manifest.js';
import { copyModelsToTempStore } from '../../../bench/bench-store.js';
import { makeTempDir } from '../../support/temp-dir.js';

const MANIFEST = 'name: demo\nversion: "1"\nmodel: model.onnx\nbatching: { maxBatchSize: 16, maxBatchDelayMs: 1 }\n';

describe('copyModelsToTempStore', () => {
  let source: string;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    let dir: string;
    ({ dir, cleanup } = await makeTempDir());
    source = join(dir, 'demo');
    await mkdir(source);
    await writeFile(join(source, 'model.yaml'), MANIFEST);
    await writeFile(join(source, 'model.onnx'), Buffer.from([1, 2, 3]));
  });

  afterAll(async () => {
    await cleanup();
  });

  it('copies models under their store names, rewriting batching only where asked', async () => {
    const store = await copyModelsToTempStore([
      { source, name: 'as-is' },
      { source, name: 'unbatched', batching: { maxBatchSize: 1, maxBatchDelayMs: 0 } },
    ]);
    try {
      expect(await readFile(join(store.dir, 'as-is', 'model.yaml'), 'utf8')).toBe(MANIFEST);
      expect(readManifestBatching(await readFile(join(store.dir, 'unbatched', 'model.yaml'), 'utf8'))).toEqual({ maxBatchSize: 1, maxBatchDelayMs: 0 });
      expect([...(await readFile(join(store.dir, 'unbatched', 'model.onnx')))]).toEqual([1, 2, 3]);
      expect(readManifestBatching(await readFile(join(source, 'model.yaml'), 'utf8'))).toEqual({ maxBatchSize: 16, maxBatchDelayMs: 1 });
    } finally {
      await store.cleanup();
    }
    await expect(access(store.dir)).rejects.toThrow();
  });

  it('rejects when a model directory is missing', async () => {
    await expect(copyModelsToTempStore([{ source: join(source, 'missing'), name: 'x' }])).rejects.toThrow();
  });
});
