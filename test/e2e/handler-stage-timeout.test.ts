import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { stallingHandler, type StallBody } from '../support/handlers/stalling-handler.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { requestJson, startTestServer, type JsonAnswer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];
const RESPONSE_TIMEOUT_MS = 400;

/** A plugin whose handler's preprocess returns a promise that never settles. */
const STALLED_PLUGIN = "export default { register(c) { c.handler({ name: 'plugin-stall', preprocess: () => new Promise(() => {}), postprocess: async (results) => results.map(() => 'done') }); } };\n";

/** The message of a request answered while `handler` of model `model` had not settled `stage`. */
function timeoutMessage(model: string, handler: string, stage: string): RegExp {
  return new RegExp(
    `^model \`${model}\` version \`1\\.0\` did not answer in time: its response timeout passed after \\d+ ms while handler \`${handler}\` ran ${stage}, whose promise had not settled; raise the timeout or make the handler finish sooner$`,
  );
}

/** Resolves once `check` holds, polling; fails the test by timing out otherwise. */
async function eventually(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Handlers on the event loop whose stage returns a promise that never settles: the request is answered
 * 504 at the model's response timeout, as a CPU-heavy handler's is, and the server goes on serving.
 */
describe('an event-loop handler stage that never settles', () => {
  let t: TestServer;
  const handler = stallingHandler();
  const predict = (model: string, body: StallBody): Promise<JsonAnswer> => requestJson(`${t.inference}/predictions/${model}`, { method: 'POST', json: body });
  /** Sends `body` to the stalling model; resolves with the answer and how long it took. */
  const timed = async (body: StallBody): Promise<{ answer: JsonAnswer; ms: number }> => {
    const sent = performance.now();
    const answer = await predict('stalling', body);
    return { answer, ms: performance.now() - sent };
  };

  /** How many requests the stalling model has run, from the batch sizes on the metrics page. */
  const queued = async (): Promise<number> => {
    const series = 'sluice_batch_size_sum{model_name="stalling",model_version="1.0"} ';
    const page = await (await fetch(`${t.metrics}/metrics`)).text();
    const line = page.split('\n').find((l) => l.startsWith(series));
    return line === undefined ? 0 : Number(line.slice(series.length));
  };

  beforeAll(async () => {
    t = await startTestServer({
      demoModels: ['iris'],
      handlers: [handler],
      config: { plugins: [{ path: './plugins/stalled' }] },
      prepare: async (store, dir) => {
        await writePluginFolder(join(dir, 'plugins', 'stalled'), { name: 'stalled', provides: [{ point: 'handler', name: 'plugin-stall' }] }, STALLED_PLUGIN);
        const manifest = await readFile(join(store, 'iris', 'model.yaml'), 'utf8');
        for (const [model, handlerName] of [['stalling', 'stalling'], ['plugged', 'plugin-stall']] as const) {
          await cp(join(store, 'iris'), join(store, model), { recursive: true });
          const own = manifest.replace('name: iris', `name: ${model}`).replace('handler: classifier', `handler: ${handlerName}`);
          await writeFile(join(store, model, 'model.yaml'), `${own}responseTimeoutMs: ${RESPONSE_TIMEOUT_MS}\n`);
        }
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const unhandled: unknown[] = [];
  const record = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });
  afterEach(() => {
    process.off('unhandledRejection', record);
  });

  it('answers 504 at the response timeout when preprocess never settles, while a request to the same model succeeds meanwhile', async () => {
    const order: string[] = [];
    const stuck = timed({ features: SETOSA, stall: 'preprocess' }).then((result) => {
      order.push('stuck');
      return result;
    });
    const normal = await predict('stalling', { features: SETOSA });
    order.push('normal');
    expect(normal).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
    const { answer, ms } = await stuck;
    expect(answer).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT', message: expect.stringMatching(timeoutMessage('stalling', 'stalling', 'preprocess')) as unknown } });
    expect(ms).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS);
    expect(order).toEqual(['normal', 'stuck']);
  });

  it('answers 504 at the response timeout when postprocess never settles', async () => {
    const { answer, ms } = await timed({ features: SETOSA, stall: 'postprocess' });
    expect(answer).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT', message: expect.stringMatching(timeoutMessage('stalling', 'stalling', 'postprocess')) as unknown } });
    expect(ms).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS);
    expect(await predict('stalling', { features: SETOSA })).toMatchObject({ status: 200 });
  });

  it('drops a preprocess that settles after its request was answered: nothing of it reaches the queue or postprocess', async () => {
    const before = { ...handler.settled };
    const queuedBefore = await queued();
    const { answer } = await timed({ features: SETOSA, stall: 'preprocess', settleAfterMs: RESPONSE_TIMEOUT_MS + 200 });
    expect(answer).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT' } });
    await eventually(() => handler.settled.preprocess > before.preprocess);
    // Time for the late result to have gone on to the model and postprocess, had it been let through.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(handler.settled).toEqual({ preprocess: before.preprocess + 1, postprocess: before.postprocess });
    expect(await queued()).toBe(queuedBefore);
    expect(await predict('stalling', { features: SETOSA })).toMatchObject({ status: 200, body: { outputs: ['probabilities', 'label'] } });
    expect(await queued()).toBe(queuedBefore + 1);
  });

  it('drops a stage that fails after its request was answered, with no unhandled rejection', async () => {
    const before = handler.settled.postprocess;
    const { answer } = await timed({ features: SETOSA, stall: 'postprocess', settleAfterMs: RESPONSE_TIMEOUT_MS + 200, settleWith: 'error' });
    expect(answer).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT' } });
    await eventually(() => handler.settled.postprocess > before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
    expect(await predict('stalling', { features: SETOSA })).toMatchObject({ status: 200 });
  });

  it('answers a plugin handler that never settles with 504 SLUICE_RESPONSE_TIMEOUT, not as a plugin failure', async () => {
    expect(await predict('plugged', { features: SETOSA })).toMatchObject({
      status: 504,
      body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT', message: expect.stringMatching(timeoutMessage('plugged', 'plugin-stall', 'preprocess')) as unknown },
    });
  });
});
