import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { threadProbeHandler, type ProbeBody } from '../support/handlers/thread-probe-handler.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { memoryLogger, requestJson, startTestServer, type JsonAnswer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/**
 * A CPU-heavy handler's long call holds one handler thread, never all of them, and no longer than its
 * model is registered: the server's other models keep being served on the threads that remain.
 */
describe('handler threads shared between models', () => {
  let t: TestServer;
  const lines: string[] = [];
  const predict = (model: string, body: ProbeBody): Promise<JsonAnswer> => requestJson(`${t.inference}/predictions/${model}`, { method: 'POST', json: body });

  /** Resolves once the server has logged `msg`: the handler thread has reached that point. */
  const logged = async (msg: string): Promise<void> => {
    while (!lines.some((l) => (JSON.parse(l) as { msg?: string }).msg === msg)) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      logger: memoryLogger(lines),
      handlers: [threadProbeHandler],
      handlerPool: { threads: 2, execArgv: TYPESCRIPT_THREAD_ARGV },
      prepare: async (store) => {
        const manifest = await readFile(join(store, 'iris', 'model.yaml'), 'utf8');
        for (const model of ['long', 'short', 'doomed']) {
          await cp(join(store, 'iris'), join(store, model), { recursive: true });
          await writeFile(join(store, model, 'model.yaml'), manifest.replace('name: iris', `name: ${model}`).replace('handler: classifier', 'handler: thread-probe'));
        }
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers another model while one model’s long calls hold the threads it may have, and then that model’s queued call', async () => {
    const release = join(t.dir, 'release-long');
    const holding = predict('long', { log: 'long holds', holdUntil: release });
    await logged('long holds');
    let queuedAnswered = false;
    const queued = predict('long', { features: SETOSA }).then((answer) => {
      queuedAnswered = true;
      return answer;
    });
    expect(await predict('short', { features: SETOSA })).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
    expect(queuedAnswered).toBe(false);
    await writeFile(release, '');
    expect(await holding).toMatchObject({ status: 200 });
    expect(await queued).toMatchObject({ status: 200 });
  }, 30_000);

  it('drops calls whose clients left while they waited for a thread, without running them', async () => {
    const release = join(t.dir, 'release-abandoned');
    const holding = predict('long', { log: 'long holds again', holdUntil: release });
    await logged('long holds again');
    const clients = [1, 2, 3].map(() => new AbortController());
    const abandoned = clients.map(async (client, i) =>
      fetch(`${t.inference}/predictions/long`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ log: `abandoned ${i}` }), signal: client.signal }).catch(
        (error: unknown) => error,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const client of clients) client.abort();
    await Promise.all(abandoned);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await writeFile(release, '');
    expect(await holding).toMatchObject({ status: 200 });
    expect(await predict('long', { features: SETOSA })).toMatchObject({ status: 200 });
    expect(lines.filter((l) => (JSON.parse(l) as { msg?: string }).msg?.startsWith('abandoned') === true)).toEqual([]);
  }, 30_000);

  it('answers a call still running a second after its model is unregistered with 503 SLUICE_MODEL_UNLOADING, and frees its thread', async () => {
    const stuck = predict('doomed', { log: 'doomed holds', holdUntil: join(t.dir, 'never') });
    await logged('doomed holds');
    expect((await fetch(`${t.management}/models/doomed`, { method: 'DELETE' })).status).toBe(200);
    expect(await stuck).toMatchObject({
      status: 503,
      body: {
        errorCode: 'SLUICE_MODEL_UNLOADING',
        message:
          "model `doomed` version `1.0` was unloaded while handler `thread-probe` ran preprocess on a handler thread, which had not returned 1000 ms later, so the thread was stopped; a handler that watches its context's signal can return sooner",
      },
    });
    // Two calls at once need both threads: the stuck one's has been replaced.
    const answers = await Promise.all([predict('long', { features: SETOSA }), predict('short', { features: SETOSA })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
  }, 30_000);
});

describe('handler threads at a graceful stop', () => {
  it('let a CPU-heavy call running on a thread, and one waiting for a thread, finish before the server stops', async () => {
    const lines: string[] = [];
    const t = await startTestServer({
      demoModels: ['iris'],
      logger: memoryLogger(lines),
      handlers: [threadProbeHandler],
      handlerPool: { threads: 2, execArgv: TYPESCRIPT_THREAD_ARGV },
      config: { shutdownTimeoutMs: 20_000 },
      prepare: async (store) => {
        const manifest = await readFile(join(store, 'iris', 'model.yaml'), 'utf8');
        await cp(join(store, 'iris'), join(store, 'probe'), { recursive: true });
        await writeFile(join(store, 'probe', 'model.yaml'), manifest.replace('name: iris', 'name: probe').replace('handler: classifier', 'handler: thread-probe'));
      },
    });
    const predict = (body: ProbeBody): Promise<JsonAnswer> => requestJson(`${t.inference}/predictions/probe`, { method: 'POST', json: body });
    const release = join(t.dir, 'release');
    const holding = predict({ log: 'holds', holdUntil: release });
    while (!lines.some((l) => (JSON.parse(l) as { msg?: string }).msg === 'holds')) await new Promise((resolve) => setTimeout(resolve, 5));
    const waiting = predict({ features: SETOSA });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = t.server.stop();
    // Longer than the second an unloaded version's calls are given: the drain, not the unload, lets them run.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await writeFile(release, '');
    expect(await holding).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
    expect(await waiting).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
    expect(await stopping).toEqual({ drained: true });
    await t.close();
  }, 30_000);
});
