import { access } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { writePluginFolder } from '../support/plugin-folder.js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { untilQueued } from '../support/queue-wait.js';
import { requestJson, startTestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/** A plugin endpoint that never answers; it creates `reached` beside its module when a request reaches it. */
const NEVER_ANSWERS =
  "import { writeFileSync } from 'node:fs';\n" +
  "export default { register(c) { c.endpoint({ name: 'stuck', api: 'inference', method: 'GET', path: '/stuck', handle: () => { writeFileSync(new URL('./reached', import.meta.url), ''); return new Promise(() => {}); } }); } };\n";

/** Resolves once `file` exists. */
async function untilExists(file: string): Promise<void> {
  while (!(await access(file).then(() => true, () => false))) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('graceful shutdown', () => {
  it('finishes running and queued requests, refuses new ones, then stops', async () => {
    const runtime = new GatedRuntime((path) => path.includes('/iris/'));
    const t = await startTestServer({ runtime, demoModels: ['iris'] });
    const predict = (): ReturnType<typeof requestJson> => requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA });
    runtime.hold();
    const running = predict();
    await runtime.untilRunsStarted(1);
    const queued = predict();
    await untilQueued(t, 'iris', 1);
    const stopping = t.server.stop();
    await expect(predict()).rejects.toThrow(); // the listener is closed: new connections are refused
    runtime.release();
    expect((await running).status).toBe(200);
    expect(await queued).toMatchObject({ status: 200, body: { label: 'setosa' } });
    expect(await stopping).toEqual({ drained: true });
    await t.close();
  });

  it('gives up after shutdownTimeoutMs: waiting requests get 503, and stop still returns', async () => {
    const runtime = new GatedRuntime((path) => path.includes('/iris/'));
    const t = await startTestServer({ runtime, demoModels: ['iris'], config: { shutdownTimeoutMs: 100 } });
    const predict = (): ReturnType<typeof requestJson> => requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: SETOSA });
    runtime.hold();
    const running = predict().catch((error: unknown) => error);
    await runtime.untilRunsStarted(1);
    const queued = predict();
    await untilQueued(t, 'iris', 1);
    expect(await t.server.stop()).toEqual({ drained: false });
    expect(await queued).toMatchObject({ status: 503, body: { errorCode: 'SLUICE_SERVER_SHUTTING_DOWN' } });
    // Still running at the bound: answered before its connection is dropped.
    expect(await running).toMatchObject({ status: 503, body: { errorCode: 'SLUICE_SERVER_SHUTTING_DOWN' } });
    runtime.release();
    await t.close();
  });

  it('drops a connection that never sent a request instead of waiting for it', async () => {
    const t = await startTestServer({ demoModels: ['iris'] });
    const { hostname, port } = new URL(t.inference);
    const unused = connect(Number(port), hostname);
    await new Promise((resolve) => unused.once('connect', resolve));
    const dropped = new Promise((resolve) => unused.once('close', resolve));
    expect(await t.server.stop()).toEqual({ drained: true });
    await dropped;
    await t.close();
  });

  it('answers 503 to a plugin endpoint that never answers once shutdownTimeoutMs has passed, and stops', async () => {
    const t = await startTestServer({
      demoModels: [],
      // Relative to the server's folder, which `prepare` fills.
      config: { shutdownTimeoutMs: 200, plugins: [{ path: './stuck' }] },
      prepare: async (_store, dir) => {
        await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'endpoint', name: 'stuck' }] }, NEVER_ANSWERS);
      },
    });
    const answer = requestJson(`${t.inference}/stuck`);
    await untilExists(join(t.dir, 'stuck', 'reached'));
    // The models had nothing to drain: only the plugin endpoint was cut off.
    expect(await t.server.stop()).toEqual({ drained: true });
    expect(await answer).toMatchObject({ status: 503, body: { errorCode: 'SLUICE_SERVER_SHUTTING_DOWN' } });
    await t.close();
  });
});
