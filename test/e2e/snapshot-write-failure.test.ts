import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const IRIS_ROW = [5.1, 3.5, 1.4, 0.2];

/** What the management API answers when the snapshot of a change cannot be written. */
function notWritten(file: string): Record<string, unknown> {
  const advice =
    'make room on its filesystem, remove what stands at that path, set `snapshot.file` to a path in a writable directory, or turn snapshots off with `snapshot.enabled: false`';
  return {
    status: 500,
    body: {
      code: 500,
      type: 'InternalServerException',
      errorCode: 'SLUICE_SNAPSHOT_INVALID',
      message: expect.stringMatching(
        new RegExp(`^the change was not made: ${file}: cannot write the snapshot \\(EISDIR: [^)]*\\); ${advice.replace(/[.`]/g, '\\$&')}$`),
      ) as unknown,
    },
  };
}

describe('a management change whose snapshot cannot be written', () => {
  let server: TestServer;
  let file: string;
  const management = (path: string, method: string): ReturnType<typeof requestJson> => requestJson(`${server.management}${path}`, { method });
  /** Puts a directory in the snapshot's place: the rename of a written snapshot over it fails. */
  const block = async (): Promise<void> => {
    await rm(file, { recursive: true, force: true });
    await mkdir(join(file, 'in-the-way'), { recursive: true });
  };
  const unblock = (): Promise<void> => rm(file, { recursive: true, force: true });
  const describeIris = async (): Promise<readonly Record<string, unknown>[]> =>
    (await requestJson(`${server.management}/models/iris/all`)).body as Record<string, unknown>[];

  beforeAll(async () => {
    server = await startTestServer({
      config: { models: ['iris', 'mlp'] },
      prepare: async (store) => {
        // A second version of iris, registered by the set-default test.
        await cp(join(store, 'iris'), join(store, 'iris-2'), { recursive: true });
        const manifest = await readFile(join(store, 'iris-2', 'model.yaml'), 'utf8');
        await writeFile(join(store, 'iris-2', 'model.yaml'), manifest.replace('version: "1.0"', 'version: "2.0"'));
      },
    });
    file = join(server.dir, 'snapshot.json');
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(block);
  afterEach(unblock);

  it('scaling answers SLUICE_SNAPSHOT_INVALID and leaves the worker bounds as they were', async () => {
    expect(await management('/models/iris?min_worker=2&max_worker=3&synchronous=true', 'PUT')).toMatchObject(notWritten(file));
    expect(await describeIris()).toEqual([expect.objectContaining({ modelVersion: '1.0', minWorkers: 1, maxWorkers: 1 })]);
  });

  it('unregistering answers SLUICE_SNAPSHOT_INVALID and leaves the model registered and serving', async () => {
    expect(await management('/models/iris', 'DELETE')).toMatchObject(notWritten(file));
    expect(await describeIris()).toEqual([expect.objectContaining({ modelVersion: '1.0', status: 'READY' })]);
    expect(await requestJson(`${server.inference}/predictions/iris`, { method: 'POST', json: IRIS_ROW })).toMatchObject({ status: 200 });
  });

  it('registering answers SLUICE_SNAPSHOT_INVALID and leaves nothing registered, so the same registration succeeds once the snapshot can be written', async () => {
    expect(await management('/models?url=mlp&model_name=mlp2', 'POST')).toMatchObject(notWritten(file));
    expect(await management('/models/mlp2', 'GET')).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MODEL_NOT_FOUND' } });
    await unblock();
    expect(await management('/models?url=mlp&model_name=mlp2', 'POST')).toMatchObject({ status: 200 });
    expect(await management('/models/mlp2', 'DELETE')).toMatchObject({ status: 200 });
  });

  it('setting the default answers SLUICE_SNAPSHOT_INVALID and keeps the default it had', async () => {
    await unblock();
    expect(await management('/models?url=iris-2', 'POST')).toMatchObject({ status: 200 });
    await block();
    try {
      expect(await management('/models/iris/2.0/set-default', 'PUT')).toMatchObject(notWritten(file));
      expect((await describeIris()).map((v) => [v.modelVersion, v.isDefault])).toEqual([
        ['1.0', true],
        ['2.0', false],
      ]);
    } finally {
      await unblock();
      expect(await management('/models/iris/2.0', 'DELETE')).toMatchObject({ status: 200 });
    }
  });

  it('writes the snapshot of the unchanged models once the way is clear again', async () => {
    await unblock();
    expect(await management('/models/iris?min_worker=1&synchronous=true', 'PUT')).toMatchObject({ status: 200 });
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as { models: readonly { name: string; version: string; minWorkers: number }[] };
    expect(snapshot.models.map((m) => [m.name, m.version, m.minWorkers])).toEqual([
      ['iris', '1.0', 1],
      ['mlp', '1.0', 1],
    ]);
  });
});
