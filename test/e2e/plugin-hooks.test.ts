import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { recordedHookEvents } from '../fixtures/plugins/recording-hooks/index.js';
import { copyExampleWorkflows } from '../support/workflows/workflow-store.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const FIXTURES = join(packageRoot(), 'test', 'fixtures', 'plugins');
const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** Waits for hook events: hooks run after the event, off the request's path. */
async function eventsOf(hook: string, count: number): Promise<{ hook: string; event: unknown }[]> {
  for (let i = 0; i < 200; i += 1) {
    const found = recordedHookEvents().filter((e) => e.hook === hook);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return recordedHookEvents().filter((e) => e.hook === hook);
}

describe('plugin hooks and Nest modules', () => {
  let t: TestServer;

  beforeAll(async () => {
    recordedHookEvents().length = 0;
    t = await startTestServer({
      demoModels: ['iris', 'iris-quick'],
      prepare: (_store, dir) => copyExampleWorkflows(dir, ['iris-second-opinion.yaml']),
      config: { plugins: [{ path: join(FIXTURES, 'recording-hooks') }, { path: join(FIXTURES, 'nest-hello') }] },
    });
  });
  afterAll(() => t.close());

  it('onModelLoad is told of each model version loaded at start-up', async () => {
    const loaded = (await eventsOf('onModelLoad', 2)).map((e) => (e.event as { model: { name: string } }).model.name);
    expect(loaded.sort()).toEqual(['iris', 'iris-quick']);
  });

  it('preInfer and postInfer see a prediction, and a throwing observer does not fail it', async () => {
    const before = recordedHookEvents().filter((e) => e.hook === 'postInfer').length;
    expect(await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA })).toMatchObject({ status: 200, body: { label: 'setosa' } });
    const post = (await eventsOf('postInfer', before + 1)).at(-1)?.event;
    expect(post).toMatchObject({ api: 'predictions', ok: true, model: { name: 'iris', version: '1.0' } });
    expect((await eventsOf('preInfer', before + 1)).at(-1)?.event).toMatchObject({ api: 'predictions', model: { name: 'iris' } });
  });

  it('preInfer is told the request id the client is answered with', async () => {
    // The versioned route always goes through the framework; the other one through the inference lane.
    for (const [id, path] of [['hooked-lane', '/predictions/iris'], ['hooked-framework', '/predictions/iris/1.0']] as const) {
      const before = recordedHookEvents().filter((e) => e.hook === 'preInfer').length;
      const answer = await requestJson(`${t.inference}${path}`, { method: 'POST', json: SETOSA, headers: { 'x-request-id': id } });
      const pre = (await eventsOf('preInfer', before + 1)).at(-1)?.event;
      expect({ echoed: answer.headers.get('x-request-id'), pre }).toEqual({ echoed: id, pre: expect.objectContaining({ api: 'predictions', requestId: id }) });
    }
  });

  it('onWorkflowNodeEnd is told how each node of a run ended', async () => {
    const answer = await requestJson(`${t.inference}/wfpredict/iris-second-opinion`, { method: 'POST', json: { measurements: [SETOSA] } });
    expect(answer.status).toBe(200);
    const nodes = (await eventsOf('onWorkflowNodeEnd', 2)).map((e) => e.event as { workflow: string; node: string; status: string; attempts: number });
    expect(nodes.filter((n) => n.workflow === 'iris-second-opinion').map((n) => [n.node, n.status]).sort()).toEqual([
      ['careful', 'skipped'],
      ['quick', 'succeeded'],
    ]);
  });

  it('onModelUnload is told when a model is unregistered', async () => {
    // The workflow calls iris-quick, which cannot go before it.
    expect((await requestJson(`${t.management}/workflows/iris-second-opinion`, { method: 'DELETE' })).status).toBe(200);
    expect((await requestJson(`${t.management}/models/iris-quick`, { method: 'DELETE' })).status).toBe(200);
    const unloaded = (await eventsOf('onModelUnload', 1)).map((e) => (e.event as { model: { name: string } }).model.name);
    expect(unloaded).toContain('iris-quick');
  });

  it('a plugin may add routes as a Nest dynamic module', async () => {
    expect(await requestJson(`${t.management}/nest-hello`)).toMatchObject({ status: 200, body: { hello: 'from a Nest module' } });
  });
});
