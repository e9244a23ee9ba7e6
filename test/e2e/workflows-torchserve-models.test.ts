import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packModelArchive } from '../../src/model-store/index.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { startLoopbackFileServer, type LoopbackFileServer } from '../support/loopback-file-server.js';
import { coloursMar } from '../support/mar-fixtures.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';
import { writeWorkflowFile } from '../support/workflows/workflow-store.js';

/** A spec of one model node `m` whose `url` is `url`. */
const oneModelSpec = (url: string, node = 'm'): string => `models:\n  ${JSON.stringify(node)}:\n    url: ${JSON.stringify(url)}\ndag:\n  ${JSON.stringify(node)}: []\n`;

const FLOWER = [6.7, 3.1, 4.4, 1.4];

describe('the models of TorchServe workflow specs', () => {
  let t: TestServer;
  let files: LoopbackFileServer;
  const register = (query: string): ReturnType<typeof requestJson> => requestJson(`${t.management}/workflows?${query}`, { method: 'POST' });
  const described = async (model: string): Promise<unknown> => (await requestJson(`${t.management}/models/${model}`)).body;

  beforeAll(async () => {
    const remoteMar = await coloursMar();
    files = await startLoopbackFileServer((request, response) => {
      if (request.url === '/archives/colours.mar') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(remoteMar);
      } else {
        response.writeHead(404).end();
      }
    });
    t = await startTestServer({
      demoModels: ['iris'],
      handlerPool: { threads: 1, execArgv: TYPESCRIPT_THREAD_ARGV },
      config: { models: ['iris'], workflows: [], allowedUrls: ['^http://127\\.0\\.0\\.1:\\d+/.*$'] },
      prepare: async (store, dir) => {
        const staging = await mkdtemp(join(tmpdir(), 'sluice-packed-'));
        try {
          const modelDir = await addStoreModel(staging, 'packed', (d) => writeIdentityModel(d, 'FP32', [-1, 4]), { name: 'packed', version: '1.0' });
          await packModelArchive(modelDir, join(store, 'packed.sluice'));
        } finally {
          await rm(staging, { recursive: true, force: true });
        }
        await writeFile(join(store, 'colours.mar'), await coloursMar());
        await writeWorkflowFile(dir, 'first.yaml', oneModelSpec('iris.mar'));
        await writeWorkflowFile(dir, 'second.yaml', oneModelSpec('iris.mar'));
        await writeWorkflowFile(dir, 'from-archive.yaml', oneModelSpec('packed.mar'));
        await writeWorkflowFile(dir, 'from-mar.yaml', oneModelSpec('colours.mar'));
        await writeWorkflowFile(dir, 'missing.yaml', oneModelSpec('nowhere.mar'));
        await writeWorkflowFile(dir, 'bad-node.yaml', oneModelSpec('iris.mar', 'bad node'));
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it('registers each workflow’s models as <workflow>__<model>, so two workflows’ models never collide', async () => {
    expect(await register('url=first')).toMatchObject({ status: 200 });
    expect(await register('url=second')).toMatchObject({ status: 200 });
    expect(await described('first__m')).toMatchObject([{ modelName: 'first__m', modelUrl: 'iris' }]);
    expect(await described('second__m')).toMatchObject([{ modelName: 'second__m', modelUrl: 'iris' }]);
    const first = await requestJson(`${t.inference}/wfpredict/first`, { method: 'POST', json: FLOWER });
    expect(first).toMatchObject({ status: 200, body: { label: 'versicolor' } });
    expect((await requestJson(`${t.inference}/wfpredict/second`, { method: 'POST', json: FLOWER })).body).toEqual(first.body);
  });

  it('resolves url X.mar to the store directory X first (iris.mar → iris)', async () => {
    await register('url=first');
    expect(await described('first__m')).toMatchObject([{ modelUrl: 'iris' }]);
  });

  it('resolves url X.mar to the archive X.sluice when the store has no directory X', async () => {
    expect(await register('url=from-archive')).toMatchObject({ status: 200 });
    expect(await described('from-archive__m')).toMatchObject([{ modelName: 'from-archive__m', modelVersion: '1.0', modelUrl: 'packed.sluice' }]);
  });

  it('converts the archive X.mar itself when the store holds neither', async () => {
    expect(await register('url=from-mar')).toMatchObject({ status: 200 });
    expect(await described('from-mar__m')).toMatchObject([{ modelName: 'from-mar__m', modelUrl: 'colours.mar', handler: 'image-classifier' }]);
  });

  it('downloads an http(s) url with its path as written, .mar included', async () => {
    await writeWorkflowFile(t.dir, 'remote.yaml', oneModelSpec(`${files.url}/archives/colours.mar`));
    expect(await register('url=remote')).toMatchObject({ status: 200 });
    expect(await described('remote__m')).toMatchObject([{ modelName: 'remote__m', handler: 'image-classifier' }]);
  });

  it('refuses a url X.mar the store has in no form, naming what it has', async () => {
    const answer = await register('url=missing');
    expect(answer).toMatchObject({ status: 404, body: { errorCode: 'SLUICE_MANIFEST_NOT_FOUND' } });
    expect(JSON.stringify(answer.body)).toContain('url \\"nowhere.mar\\" names no model in the model store');
  });

  it('refuses a model node whose <workflow>__<model> name no model may have, registering nothing', async () => {
    const answer = await register('url=bad-node');
    expect(answer).toMatchObject({ status: 400, body: { errorCode: 'SLUICE_WORKFLOW_INVALID' } });
    expect(JSON.stringify(answer.body)).toContain('bad-node.yaml: model `bad node` is registered as <workflow>__<model>, as TorchServe names it, and that name must match');
    expect(await requestJson(`${t.management}/workflows/bad-node`)).toMatchObject({ status: 404 });
  });
});
