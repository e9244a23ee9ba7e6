import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { makeTempDir } from '../support/temp-dir.js';
import { copyDemoModels, requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** A TorchServe spec of one model node `m` served from the store's iris. */
const SPEC = 'models:\n  m:\n    url: iris.mar\ndag:\n  m: []\n';

/** A Sluice workflow whose one node calls model `model`. */
const callerOf = (name: string, model: string): string =>
  [
    'apiVersion: sluice/v1',
    'kind: Workflow',
    `metadata: { name: ${name}, version: "1.0" }`,
    'inputs:',
    '  measurements: { datatype: FP32, shape: [-1, 4] }',
    'nodes:',
    '  classify:',
    `    model: ${model}`,
    '    inputs: { input: $request.measurements }',
    'outputs:',
    '  label: classify.label',
    '',
  ].join('\n');

const CONFIG = { models: ['iris'], workflows: [] } as const;

async function prepareWorkflows(_store: string, dir: string): Promise<void> {
  await writeWorkflowFile(dir, 'owner.yaml', SPEC);
  await writeWorkflowFile(dir, 'premade.yaml', SPEC);
  await writeWorkflowFile(dir, 'uses-iris.yaml', callerOf('uses-iris', 'iris'));
  await writeWorkflowFile(dir, 'uses-owner-model.yaml', callerOf('uses-owner-model', 'owner__m'));
}

describe('unregistering a TorchServe workflow spec takes the models it registered, and only those', () => {
  let t: TestServer;
  const post = (path: string): ReturnType<typeof requestJson> => requestJson(`${t.management}${path}`, { method: 'POST' });
  const remove = (path: string): ReturnType<typeof requestJson> => requestJson(`${t.management}${path}`, { method: 'DELETE' });
  const modelStatus = async (model: string): Promise<number> => (await requestJson(`${t.management}/models/${model}`)).status;

  beforeEach(async () => {
    t = await startTestServer({ demoModels: ['iris'], config: CONFIG, prepare: prepareWorkflows });
  });
  afterEach(async () => {
    await t.close();
  });

  it('DELETE /workflows/{w} unregisters the <w>__<model> models its spec registered, as TorchServe', async () => {
    expect((await post('/workflows?url=owner')).status).toBe(200);
    expect(await modelStatus('owner__m')).toBe(200);
    const answer = await remove('/workflows/owner');
    expect(answer).toMatchObject({ status: 200, body: { status: 'Workflow "owner" unregistered, with the models it registered: owner__m' } });
    expect(await modelStatus('owner__m')).toBe(404);
    expect(await modelStatus('iris')).toBe(200);
  });

  it('leaves a <w>__<model> model that was registered before the workflow found it', async () => {
    expect((await post('/models?url=iris&model_name=premade__m')).status).toBe(200);
    expect((await post('/workflows?url=premade')).status).toBe(200);
    expect(await remove('/workflows/premade')).toMatchObject({ status: 200, body: { status: 'Workflow "premade" unregistered' } });
    expect(await modelStatus('premade__m')).toBe(200);
  });

  it('leaves a store model a workflow merely calls', async () => {
    expect((await post('/workflows?url=uses-iris')).status).toBe(200);
    expect(await remove('/workflows/uses-iris')).toMatchObject({ status: 200, body: { status: 'Workflow "uses-iris" unregistered' } });
    expect(await modelStatus('iris')).toBe(200);
  });

  it('keeps, and names, a model it registered that another workflow still calls', async () => {
    expect((await post('/workflows?url=owner')).status).toBe(200);
    expect((await post('/workflows?url=uses-owner-model')).status).toBe(200);
    const answer = await remove('/workflows/owner');
    expect(answer.status).toBe(200);
    expect((answer.body as { status: string }).status).toMatch(/^Workflow "owner" unregistered; still registered: owner__m \(.*uses-owner-model.*\)$/);
    expect(await modelStatus('owner__m')).toBe(200);
    expect((await requestJson(`${t.management}/workflows/owner`)).status).toBe(404);
  });

  it('a workflow registered again still owns the models its first registration registered', async () => {
    expect((await post('/workflows?url=owner')).status).toBe(200);
    expect((await post('/workflows?url=owner')).status).toBe(200);
    expect((await remove('/workflows/owner')).status).toBe(200);
    expect(await modelStatus('owner__m')).toBe(404);
  });
});

describe('a TorchServe workflow spec restored from the snapshot', () => {
  it('still owns the models it registered, and leaves the others', async () => {
    const { dir, cleanup } = await makeTempDir('sluice-wf-owned-');
    try {
      const prepare = async (store: string, d: string): Promise<void> => {
        await copyDemoModels(store, ['iris']);
        await prepareWorkflows(store, d);
      };
      const first = await startTestServer({ dir, config: CONFIG, prepare });
      try {
        expect((await requestJson(`${first.management}/models?url=iris&model_name=premade__m`, { method: 'POST' })).status).toBe(200);
        expect((await requestJson(`${first.management}/workflows?url=premade`, { method: 'POST' })).status).toBe(200);
        expect((await requestJson(`${first.management}/workflows?url=owner`, { method: 'POST' })).status).toBe(200);
      } finally {
        await first.server.stop();
      }
      const snapshot = JSON.parse(await readFile(join(dir, 'snapshot.json'), 'utf8')) as { workflows: unknown[] };
      expect(snapshot.workflows).toEqual([
        { name: 'owner', url: 'owner', models: [{ name: 'owner__m', version: '1.0' }] },
        { name: 'premade', url: 'premade' },
      ]);
      const second = await startTestServer({ dir, config: CONFIG });
      try {
        const status = async (model: string): Promise<number> => (await requestJson(`${second.management}/models/${model}`)).status;
        expect(await status('owner__m')).toBe(200);
        expect((await requestJson(`${second.management}/workflows/owner`, { method: 'DELETE' })).status).toBe(200);
        expect((await requestJson(`${second.management}/workflows/premade`, { method: 'DELETE' })).status).toBe(200);
        expect(await status('owner__m')).toBe(404);
        expect(await status('premade__m')).toBe(200);
      } finally {
        await second.server.stop();
      }
    } finally {
      await cleanup();
    }
  });
});
