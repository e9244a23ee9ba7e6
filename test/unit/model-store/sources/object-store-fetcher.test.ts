import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fetchObjectStoreModel, parseObjectStoreUrl, type ObjectStore, type StoredObject } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';

/** An object store in memory whose objects may hold other bytes than their listing claims. */
class MemoryStore implements ObjectStore {
  readonly label = 's3 bucket "models"';
  reads = 0;
  constructor(private readonly objects: Map<string, { listed: StoredObject; body: Buffer }>) {}

  static of(entries: Record<string, string | { listedSize?: number; body: string }>): MemoryStore {
    const objects = new Map<string, { listed: StoredObject; body: Buffer }>();
    for (const [key, value] of Object.entries(entries)) {
      const body = Buffer.from(typeof value === 'string' ? value : value.body);
      const size = typeof value === 'string' ? body.length : (value.listedSize ?? body.length);
      const md5 = createHash('md5').update(body).digest('hex');
      objects.set(key, { listed: { key, size, etag: md5, ...(typeof value === 'string' ? { md5 } : {}) }, body });
    }
    return new MemoryStore(objects);
  }

  list(prefix: string): Promise<StoredObject[]> {
    return Promise.resolve([...this.objects.values()].map((o) => o.listed).filter((o) => o.key.startsWith(prefix)));
  }
  head(key: string): Promise<StoredObject | undefined> {
    return Promise.resolve(this.objects.get(key)?.listed);
  }
  read(object: StoredObject): Promise<Readable> {
    this.reads++;
    return Promise.resolve(Readable.from([this.objects.get(object.key)?.body ?? Buffer.alloc(0)]));
  }
}

describe('fetchObjectStoreModel', () => {
  let temp: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => {
    temp = await makeTempDir('sluice-fetch-');
  });
  afterEach(async () => {
    await temp.cleanup();
  });
  const fetch = (url: string, store: ObjectStore, maxBytes = 1000): ReturnType<typeof fetchObjectStoreModel> =>
    fetchObjectStoreModel(parseObjectStoreUrl(url), store, { storeDir: temp.dir, maxBytes, timeoutMs: 10_000 });
  const left = async (): Promise<string[]> => (await readdir(join(temp.dir, '.sources')).catch(() => [])).filter((n) => n.startsWith('.tmp-'));

  it('keeps the layout below the prefix and answers the same directory, cached, the second time', async () => {
    const store = MemoryStore.of({ 'm/model.onnx': 'onnx', 'm/extra/weights.data': 'weights' });
    const first = await fetch('s3://models/m', store);
    expect((await readdir(first.dir, { recursive: true })).sort()).toEqual(['extra', 'extra/weights.data', 'model.onnx']);
    expect({ kind: first.kind, cached: first.cached, reads: store.reads }).toEqual({ kind: 'directory', cached: false, reads: 2 });
    const second = await fetch('s3://models/m/', store);
    expect({ cached: second.cached, same: second.dir === first.dir, reads: store.reads }).toEqual({ cached: true, same: true, reads: 2 });
  });

  it('stops an object that turns out larger than the limit while it streams, keeping nothing', async () => {
    const store = MemoryStore.of({ 'm/model.onnx': { listedSize: 10, body: 'x'.repeat(5000) } });
    await expect(fetch('s3://models/m/', store)).rejects.toThrow('downloading "m/model.onnx" of s3://models/m/ failed: it is larger than the limit of 1000 bytes; nothing was kept');
    expect(await left()).toEqual([]);
  });

  it('refuses a body shorter than listed after three attempts, keeping nothing', async () => {
    const store = MemoryStore.of({ 'm/model.onnx': { listedSize: 10, body: 'short' } });
    await expect(fetch('s3://models/m/', store)).rejects.toThrow(
      'downloading "m/model.onnx" of s3://models/m/ failed: 5 bytes arrived where 10 were listed: the transfer was cut short or the object changed, 3 attempts; nothing was kept',
    );
    expect(store.reads).toBe(3);
    expect(await left()).toEqual([]);
  });

  it.each([
    ['m/.hidden/model.onnx', "starts with '.', which Sluice keeps for its own files"],
    ['m/a//model.onnx', "has an empty, '.' or '..' path segment"],
    ['m/a/../model.onnx', "has an empty, '.' or '..' path segment"],
  ])('refuses the key %s before downloading anything', async (key, problem) => {
    const store = MemoryStore.of({ 'm/model.onnx': 'onnx', [key]: 'x' });
    await expect(fetch('s3://models/m/', store)).rejects.toThrow(`s3://models/m/: the object ${JSON.stringify(key)} ${problem}, so it cannot be a file of a model directory; rename it`);
    expect(store.reads).toBe(0);
  });

  it('refuses a URL naming one object that is neither a prefix nor an archive', async () => {
    const store = MemoryStore.of({ 'm/model.onnx': 'onnx' });
    await expect(fetch('s3://models/m/model.onnx', store)).rejects.toThrow(expect.objectContaining({ code: 'SLUICE_MANIFEST_NOT_FOUND' }));
  });
});
