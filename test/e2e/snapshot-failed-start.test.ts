import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writePluginFolder } from '../support/plugin-folder.js';
import { expectStartOnTakenPortToFail } from '../support/taken-port-start.js';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A second server sharing the first one's snapshot file whose start fails to listen: the snapshot must stay
 * the running server's. The second one serves other models, so a snapshot it wrote would differ in more than
 * its time; its clash is on the gRPC management port, the last port a start opens.
 */
describe('snapshot and a start that fails to listen', () => {
  let a: TestServer;
  let snapshotFile = '';

  beforeAll(async () => {
    a = await startTestServer({ demoModels: ['iris'] });
    snapshotFile = a.config.snapshot.file;
  });
  afterAll(() => a.close());

  it('leaves the running server snapshot byte for byte unchanged', async () => {
    const before = await readFile(snapshotFile, 'utf8');
    await expectStartOnTakenPortToFail(a, {
      prepare: (store) => copyDemoModels(store, ['mlp']),
      restoreSnapshot: false,
      config: { snapshot: { enabled: true, file: snapshotFile } },
    });
    expect(await readFile(snapshotFile, 'utf8')).toBe(before);
  });

  it('still takes the running server management changes', async () => {
    expect((await requestJson(`${a.management}/models/iris?min_worker=2&max_worker=3&synchronous=true`, { method: 'PUT' })).status).toBe(200);
    const snapshot = JSON.parse(await readFile(snapshotFile, 'utf8')) as { models: unknown[] };
    expect(snapshot.models).toEqual([expect.objectContaining({ name: 'iris', version: '1.0', minWorkers: 2, maxWorkers: 3 })]);
  });
});

describe('a corrupt snapshot with restore on', () => {
  it('fails the start naming the file and what to do, and shuts down the plugins it had started', async () => {
    const temp = await makeTempDir('sluice-corrupt-snapshot-');
    try {
      const snapshotFile = join(temp.dir, 'snapshot.json');
      await writeFile(snapshotFile, '{"format": 1, "models": [');
      const pluginDir = join(temp.dir, 'plugins', 'watcher');
      const marker = join(pluginDir, 'shut-down.txt');
      const source = "import { writeFileSync } from 'node:fs';\nexport default { register(c) { c.onShutdown(() => { writeFileSync(new URL('./shut-down.txt', import.meta.url), 'closed'); }); } };\n";
      await writePluginFolder(pluginDir, { name: 'watcher' }, source);
      const started = startTestServer({ dir: temp.dir, config: { plugins: [{ path: pluginDir }], snapshot: { enabled: true, file: snapshotFile } } });
      await expect(started).rejects.toMatchObject({
        code: 'SLUICE_SNAPSHOT_INVALID',
        message: `${snapshotFile}: is not valid JSON (Unexpected end of JSON input); fix or delete the file, or start Sluice with --no-snapshot`,
      });
      expect(await readFile(marker, 'utf8')).toBe('closed');
    } finally {
      await temp.cleanup();
    }
  });
});
