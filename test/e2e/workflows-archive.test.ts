import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { packModelArchive } from '../../src/model-store/index.js';
import { packWorkflowArchive } from '../../src/workflow/serving/workflow-archive.js';
import { makeTempDir } from '../support/temp-dir.js';
import { buildTar, sha256 } from '../support/tar-builder.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { workflowStoreOf } from '../support/workflows/workflow-store.js';

const CLEAR = [[5.1, 3.5, 1.4, 0.2]];
const FLOWER = [6.7, 3.1, 4.4, 1.4];
const EXAMPLES = join(packageRoot(), 'workflows');

/** A workflow archive whose manifest is right but which also holds `../escape.yaml`. */
async function escapingArchive(): Promise<Buffer> {
  const workflow = await readFile(join(EXAMPLES, 'iris-second-opinion.yaml'), 'utf8');
  const manifest = {
    format: 1,
    kind: 'workflow',
    name: 'escape',
    version: '1',
    createdAt: '2026-01-01T00:00:00.000Z',
    files: [{ path: 'workflow.yaml', size: Buffer.byteLength(workflow), sha256: sha256(workflow) }],
  };
  return gzipSync(
    await buildTar([
      { header: { name: 'SLUICE-ARCHIVE.json' }, content: JSON.stringify(manifest) },
      { header: { name: 'workflow.yaml' }, content: workflow },
      { header: { name: '../escape.yaml' }, content: workflow },
    ]),
  );
}

/** Packs a directory holding `files` (name → source file) as a workflow archive at `out`. */
async function packDirectory(root: string, dirName: string, files: Readonly<Record<string, string>>, out: string): Promise<void> {
  const dir = join(root, dirName);
  await mkdir(dir, { recursive: true });
  for (const [name, source] of Object.entries(files)) await copyFile(source, join(dir, name));
  await packWorkflowArchive(dir, out);
}

describe('workflow archives', () => {
  let t: TestServer;
  let files: LoopbackFileServer;
  let filesUrl = '';
  let cleanup: () => Promise<void>;
  const register = (query: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/workflows?${query}`, { method: 'POST' });
  const run = (name: string, json: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/wfpredict/${name}`, { method: 'POST', json });
  const predict = async (model: string, json: unknown): Promise<unknown> => (await requestJson(`${t.inference}/predictions/${model}`, { method: 'POST', json })).body;
  const extracted = async (): Promise<string[]> => (await readdir(join(workflowStoreOf(t.dir), '.extracted'))).sort();

  beforeAll(async () => {
    const packing = await makeTempDir('sluice-workflow-packing-');
    cleanup = packing.cleanup;
    const served: Record<string, Buffer> = {};
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      config: { models: ['iris', 'iris-quick'], workflows: [], allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/workflows/.*$'] },
      prepare: async (store, dir) => {
        const workflows = workflowStoreOf(dir);
        await mkdir(workflows, { recursive: true });
        await packDirectory(packing.dir, 'second', { 'workflow.yaml': join(EXAMPLES, 'iris-second-opinion.yaml') }, join(workflows, 'second.sluice'));
        const spec = join(EXAMPLES, 'torchserve-iris.yaml');
        const functions = join(EXAMPLES, 'torchserve-iris.js');
        await packDirectory(packing.dir, 'ts-iris', { 'workflow.yaml': spec, 'workflow.js': functions }, join(workflows, 'ts-iris.sluice'));
        await packDirectory(packing.dir, 'ts-named', { 'workflow.yaml': spec, 'functions.js': functions }, join(workflows, 'ts-named.sluice'));
        await packModelArchive(join(store, 'iris'), join(workflows, 'a-model.sluice'));
        await copyFile(join(workflows, 'second.sluice'), join(store, 'a-workflow.sluice'));
        await writeFile(join(workflows, 'escape.sluice'), await escapingArchive());
        served['/workflows/second.sluice'] = await readFile(join(workflows, 'second.sluice'));
        served['/workflows/second.yaml'] = await readFile(join(EXAMPLES, 'iris-second-opinion.yaml'));
      },
    });
    files = await startLoopbackFileServer((req, res) => {
      const body = served[req.url ?? ''];
      if (body === undefined) res.writeHead(404).end();
      else res.end(body);
    });
    filesUrl = files.url;
  });
  afterAll(async () => {
    await t.close();
    await files.close();
    await cleanup();
  });

  it('registers a workflow from a .sluice archive in the workflow store and runs it', async () => {
    expect(await register('url=second.sluice')).toMatchObject({
      status: 200,
      body: { status: 'Workflow "iris-second-opinion" version 1.0 registered' },
    });
    expect((await requestJson(`${t.management}/workflows/iris-second-opinion`)).body).toMatchObject([
      { workflowName: 'iris-second-opinion', workflowUrl: 'second.sluice', workflowVersion: '1.0', ready: true },
    ]);
    expect(await run('iris-second-opinion', { measurements: CLEAR })).toMatchObject({ status: 200, body: { label: [0] } });
  });

  it('registers a TorchServe spec archive under the name it was packed as, with the function module it carries', async () => {
    expect(await register('url=ts-iris.sluice')).toMatchObject({ status: 200, body: { status: 'Workflow "ts-iris" version 1 registered' } });
    expect(await run('ts-iris', FLOWER)).toEqual({
      status: 200,
      headers: expect.any(Headers),
      body: { quick: await predict('iris-quick', FLOWER), careful: await predict('iris', FLOWER), agree: false },
    });
  });

  it('looks up handler= inside the archive', async () => {
    expect(await register('url=ts-named.sluice&handler=functions.js')).toMatchObject({ status: 200 });
    expect(await run('ts-named', FLOWER)).toMatchObject({ status: 200, body: { agree: false } });
  });

  it('registers a workflow archive from an allowed URL', async () => {
    expect(await register(`url=${filesUrl}/workflows/second.sluice&workflow_name=from-url`)).toMatchObject({ status: 200 });
    expect(await run('from-url', { measurements: CLEAR })).toMatchObject({ status: 200, body: { label: [0] } });
  });

  it('registers a workflow file from an allowed URL', async () => {
    expect(await register(`url=${filesUrl}/workflows/second.yaml&workflow_name=yaml-from-url`)).toMatchObject({ status: 200 });
    expect(await run('yaml-from-url', { measurements: CLEAR })).toMatchObject({ status: 200, body: { label: [0] } });
  });

  it('refuses a model archive at /workflows with 400 saying where it belongs', async () => {
    expect(await register('url=a-model.sluice')).toMatchObject({
      status: 400,
      body: { errorCode: 'SLUICE_ARCHIVE_INVALID', message: 'a-model.sluice: holds a model, not a workflow; register it with POST /models' },
    });
  });

  it('refuses a workflow archive at /models with 400 saying where it belongs', async () => {
    const answer = await requestJson(`${t.management}/models?url=a-workflow.sluice`, { method: 'POST' });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_ARCHIVE_INVALID' } });
    expect((answer.body as { message: string }).message).toMatch(/a-workflow\.sluice: holds a workflow, not a model; register it with POST \/workflows$/);
  });

  it('refuses an archive with an entry outside it, leaving nothing unpacked', async () => {
    const before = await extracted();
    expect(await register('url=escape.sluice')).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_ARCHIVE_UNSAFE_PATH' } });
    expect(await extracted()).toEqual(before);
    expect(existsSync(join(workflowStoreOf(t.dir), '.extracted', '..', 'escape.yaml'))).toBe(false);
    expect(existsSync(join(workflowStoreOf(t.dir), 'escape.yaml'))).toBe(false);
  });

  it('records a workflow registered from an archive in the snapshot by its store name', async () => {
    await register('url=second.sluice&workflow_name=kept');
    const snapshot = JSON.parse(await readFile(join(t.dir, 'snapshot.json'), 'utf8')) as { workflows?: unknown[] };
    expect(snapshot.workflows).toContainEqual({ name: 'kept', url: 'second.sluice' });
  });
});
