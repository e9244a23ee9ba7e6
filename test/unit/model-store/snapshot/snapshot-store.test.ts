import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SnapshotStore, type Snapshot } from '../../../../src/model-store/index.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { permissionsOf } from '../../../support/file-mode.js';

let root: string;
let file: string;
let cleanup: () => Promise<void>;

const ADVICE = 'fix or delete the file, or start Sluice with --no-snapshot';

const SNAPSHOT: Snapshot = {
  format: 1,
  createdAt: '2024-05-01T12:00:00.000Z',
  models: [
    { name: 'iris', version: '1.0', url: 'iris', isDefault: true, minWorkers: 1, maxWorkers: 4, batchSize: 8, maxBatchDelayMs: 0.5 },
    {
      name: 'iris',
      version: '2.0',
      url: 'https://models.example.com/iris-2.sluice',
      isDefault: false,
      minWorkers: 0,
      maxWorkers: 1,
      batchSize: 1,
      maxBatchDelayMs: 0,
      responseTimeoutMs: 3000,
      jobQueueSize: 50,
    },
  ],
};

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
  file = join(root, 'state', 'snapshot.json');
});
afterEach(async () => {
  await cleanup();
});

describe('SnapshotStore', () => {
  it('reads back what it wrote', async () => {
    const store = new SnapshotStore(file);
    await store.write(SNAPSHOT);
    expect(await store.read()).toEqual(SNAPSHOT);
  });

  it('reads nothing when no snapshot was written yet', async () => {
    expect(await new SnapshotStore(file).read()).toBeUndefined();
  });

  it('replaces the previous snapshot', async () => {
    const store = new SnapshotStore(file);
    await store.write(SNAPSHOT);
    const next: Snapshot = { ...SNAPSHOT, models: [SNAPSHOT.models[0]!] };
    await store.write(next);
    expect(await store.read()).toEqual(next);
  });

  it('creates its missing directory with mode 0700: by default token-auth keeps its keys there too', async () => {
    await new SnapshotStore(file).write(SNAPSHOT);
    expect(await permissionsOf(join(root, 'state'))).toBe('700');
  });

  it('leaves only the snapshot file in its directory', async () => {
    const store = new SnapshotStore(file);
    await store.write(SNAPSHOT);
    await store.write(SNAPSHOT);
    expect(await readdir(join(root, 'state'))).toEqual(['snapshot.json']);
  });

  it('ignores a temporary file left by a crash in the middle of a write', async () => {
    const store = new SnapshotStore(file);
    await store.write(SNAPSHOT);
    await writeFile(join(root, 'state', '.snapshot.json.4242.0123456789ab.tmp'), '{"format": 1, "models": [');
    expect(await store.read()).toEqual(SNAPSHOT);
  });

  it('still writes after a crash left a temporary file behind', async () => {
    const store = new SnapshotStore(file);
    await mkdir(join(root, 'state'));
    await writeFile(join(root, 'state', '.snapshot.json.4242.0123456789ab.tmp'), 'torn');
    await store.write(SNAPSHOT);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(SNAPSHOT);
  });

  it('refuses a file whose directory cannot be created under /proc, naming the file, instead of retrying without end', async () => {
    const unwritable = '/proc/sluice-state/snapshot.json';
    await expect(new SnapshotStore(unwritable).write(SNAPSHOT)).rejects.toMatchObject({
      code: 'SLUICE_SNAPSHOT_INVALID',
      message:
        `${unwritable}: cannot create the snapshot's directory (cannot create the directory /proc/sluice-state: the filesystem of /proc makes no new directories there); ` +
        'set `snapshot.file` to a path in a writable directory, or turn snapshots off with `snapshot.enabled: false`',
    });
  }, 5_000);

  it('refuses to write where a directory stands, naming the file, and keeps nothing half-written', async () => {
    const store = new SnapshotStore(file);
    await mkdir(join(file, 'inside'), { recursive: true });
    await expect(store.write(SNAPSHOT)).rejects.toMatchObject({
      code: 'SLUICE_SNAPSHOT_INVALID',
      message: expect.stringMatching(
        new RegExp(`^${file}: cannot write the snapshot \\(E[A-Z]+: .*\\); make room on its filesystem, remove what stands at that path, `),
      ) as unknown,
    });
    expect(await readdir(join(root, 'state'))).toEqual(['snapshot.json']);
  });

  it('refuses a FIFO in the snapshot\'s place at once instead of waiting for a writer', async () => {
    await mkdir(join(root, 'state'));
    execFileSync('mkfifo', [file]);
    await expect(new SnapshotStore(file).read()).rejects.toMatchObject({
      code: 'SLUICE_SNAPSHOT_INVALID',
      message: `${file}: is not a regular file (a FIFO, socket or device stands in its place); ${ADVICE}`,
    });
  }, 5_000);

  it('refuses a file it cannot open, naming the file and the reason', async () => {
    await mkdir(join(root, 'state'));
    await symlink(file, file);
    await expect(new SnapshotStore(file).read()).rejects.toMatchObject({
      code: 'SLUICE_SNAPSHOT_INVALID',
      message: `${file}: cannot be read (ELOOP: too many symbolic links encountered, open '${file}'); ${ADVICE}`,
    });
    await rm(file);
  });

  it('refuses a directory in the snapshot\'s place, naming the file', async () => {
    await mkdir(file, { recursive: true });
    await expect(new SnapshotStore(file).read()).rejects.toMatchObject({
      code: 'SLUICE_SNAPSHOT_INVALID',
      message: `${file}: is a directory, not a snapshot file; ${ADVICE}`,
    });
  });

  const corrupt: ReadonlyArray<readonly [string, string, string]> = [
    ['torn JSON', '{"format": 1, "models": [', 'is not valid JSON (Unexpected end of JSON input)'],
    ['an empty file', '', 'is not valid JSON (Unexpected end of JSON input)'],
    ['a newer format', JSON.stringify({ ...SNAPSHOT, format: 2, extra: true }), 'has format 2 (a newer Sluice wrote it), and this Sluice reads only format 1'],
    ['an older format', JSON.stringify({ ...SNAPSHOT, format: 0 }), 'has format 0, and this Sluice reads only format 1'],
    ['a model without url', JSON.stringify({ ...SNAPSHOT, models: [{ ...SNAPSHOT.models[0], url: undefined }] }), '`models[0].url` is required'],
    ['an unknown key', JSON.stringify({ ...SNAPSHOT, extra: true }), '`extra` is not a known key (allowed here: format, createdAt, workflows, models)'],
    [
      'max workers below min workers',
      JSON.stringify({ ...SNAPSHOT, models: [{ ...SNAPSHOT.models[0], minWorkers: 3, maxWorkers: 2 }] }),
      '`models[0].maxWorkers` (2) is less than `models[0].minWorkers` (3)',
    ],
    [
      'a version listed twice',
      JSON.stringify({ ...SNAPSHOT, models: [SNAPSHOT.models[0], { ...SNAPSHOT.models[0], isDefault: false }] }),
      '`models[1]` repeats iris version 1.0',
    ],
    [
      'two default versions',
      JSON.stringify({ ...SNAPSHOT, models: [SNAPSHOT.models[0], { ...SNAPSHOT.models[1], isDefault: true }] }),
      'model iris has 2 default versions instead of exactly one',
    ],
  ];

  it.each(corrupt)('refuses %s, naming the file and what to do', async (_title, content, problem) => {
    await mkdir(join(root, 'state'));
    await writeFile(file, content);
    await expect(new SnapshotStore(file).read()).rejects.toMatchObject({ code: 'SLUICE_SNAPSHOT_INVALID', message: `${file}: ${problem}; ${ADVICE}` });
  });
});
