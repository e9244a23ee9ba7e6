import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { STALE_TEMPORARY_AGE_MS } from '../../src/model-store/index.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Writes `file` (and the folder it is in) with their times set `ageMs` in the past. */
async function writeAged(file: string, ageMs: number): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, 'bytes');
  const then = new Date(Date.now() - ageMs);
  await utimes(file, then, then);
  await utimes(join(file, '..'), then, then);
}

const OLD = STALE_TEMPORARY_AGE_MS + 60_000;

/** What a server killed in the middle of its work leaves behind, at the next start. */
describe('temporaries of a server that was killed', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      prepare: async (store, dir) => {
        await writeAged(join(store, '.extracted', '.tmp-killed', 'model.onnx'), OLD);
        await writeAged(join(store, '.extracted', '.tmp-young', 'model.onnx'), 0);
        await writeAged(join(store, '.extracted', 'iris-1.0-0123456789ab', 'model.onnx'), OLD);
        await writeAged(join(store, '.downloads', '0123456789abcdef.sluice.0a1b2c3d4e5f.part'), OLD);
        await writeAged(join(dir, 'workflows', '.extracted', '.tmp-killed', 'workflow.yaml'), OLD);
        await writeAged(join(dir, 'workflows', '.downloads', '0123456789abcdef.yaml'), OLD);
        await writeAged(join(dir, '.snapshot.json.4242.0a1b2c3d4e5f.tmp'), OLD);
      },
    });
  });
  afterAll(() => t.close());

  it('removes the model store’s unpacking directories and downloads nothing has changed in for an hour, and keeps younger ones and what was unpacked', async () => {
    expect({
      extracted: (await readdir(join(t.config.modelStore, '.extracted'))).sort(),
      downloads: await readdir(join(t.config.modelStore, '.downloads')),
    }).toEqual({ extracted: ['.tmp-young', 'iris-1.0-0123456789ab'], downloads: [] });
  });

  it('removes the workflow store’s', async () => {
    expect({
      extracted: await readdir(join(t.config.workflowStore, '.extracted')),
      downloads: await readdir(join(t.config.workflowStore, '.downloads')),
    }).toEqual({ extracted: [], downloads: [] });
  });

  it('removes a half-written snapshot', async () => {
    expect((await readdir(t.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
