import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const STARTER = join(packageRoot(), 'examples', 'plugin-starter');
const SETOSA = { sepal_length: 5.1, sepal_width: 3.5, petal_length: 1.4, petal_width: 0.2 };

/** The starter, installed into an application folder outside the source tree like any npm package. */
describe('the plugin starter, installed as a package', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      prepare: async (store, dir) => {
        const installed = join(dir, 'app', 'node_modules', 'sluice-plugin-starter');
        await mkdir(installed, { recursive: true });
        await cp(STARTER, installed, { recursive: true });
        await cp(join(store, 'iris'), join(store, 'flower'), { recursive: true });
        const manifest = await readFile(join(store, 'flower', 'model.yaml'), 'utf8');
        await writeFile(join(store, 'flower', 'model.yaml'), manifest.replace('name: iris', 'name: flower').replace('handler: classifier', 'handler: starter-flower'));
      },
      config: { plugins: [{ package: 'sluice-plugin-starter', from: 'app', config: { greeting: 'hi there' } }] },
    });
  });
  afterAll(() => t.close());

  it('is loaded with the version and provides of its package.json', () => {
    expect(t.server.plugins.plugins.find((p) => p.name === 'starter')).toMatchObject({ version: '0.1.0', builtIn: false, provides: expect.arrayContaining([{ point: 'endpoint', name: 'stats' }]) as unknown });
  });

  it('serves its handler for a model that names it', async () => {
    const answer = await requestJson(`${t.inference}/predictions/flower`, { method: 'POST', json: SETOSA });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ species: 'setosa' });
  });

  it('answers its deliberate errors with their Sluice code and the plugin name', async () => {
    const answer = await requestJson(`${t.inference}/predictions/flower`, { method: 'POST', json: { sepal_length: 5.1 } });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errorCode: 'SLUICE_REQUEST_INVALID', plugin: 'starter', message: '`sepal_width` must be a number of centimetres' });
  });

  it('decodes and encodes bodies with its envelope, one line per instance', async () => {
    const res = await fetch(`${t.inference}/predictions/flower?envelope=starter-csv`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: 'nonsense\n',
    });
    expect(res.status).toBe(400);
    const csv = await fetch(`${t.inference}/predictions/iris?envelope=starter-csv`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body: '5.1,3.5,1.4,0.2\n6.7,3.0,5.2,2.3\n',
    });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe('setosa\nvirginica\n');
  });

  it('adds its endpoint, with its config and a read-only view of the models', async () => {
    const answer = await requestJson(`${t.inference}/starter/stats`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ greeting: 'hi there', models: ['flower@1.0', 'iris@1.0'] });
  });

  it('observes inference calls through its postInfer hook', async () => {
    const before = ((await requestJson(`${t.inference}/starter/stats`)).body as { inferences: Record<string, { ok: number }> }).inferences['flower']?.ok ?? 0;
    await requestJson(`${t.inference}/predictions/flower`, { method: 'POST', json: SETOSA });
    // Hooks run after the answer; the next request sees the count.
    const after = (await requestJson(`${t.inference}/starter/stats`)).body as { inferences: Record<string, { ok: number }> };
    expect(after.inferences['flower']?.ok).toBe(before + 1);
  });

  it('passes its own tests', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--test', 'test/'], { cwd: STARTER });
    expect(stdout).toMatch(/# fail 0/);
  });
});
