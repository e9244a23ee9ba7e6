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
