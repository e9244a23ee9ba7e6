import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

/** The `slow` model waits at a gate the test opens, so "queued" and "running" are under the test's control. */
describe('scheduler limits over HTTP', () => {
  let t: TestServer;
  const runtime = new GatedRuntime((path) => path.includes('/slow/'));
  const infer = (path = 'slow'): ReturnType<typeof requestJson> =>
    requestJson(`${t.inference}/v2/models/${path}/infer`, { method: 'POST', json: { inputs: [{ name: 'input', shape: [1], datatype: 'FP32', data: [1] }] } });

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: ['iris'],
      prepare: async (store) => {
        await addStoreModel(store, 'slow', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'slow',
          version: '1',
          jobQueueSize: 2,
          responseTimeoutMs: 300,
          workers: { min: 1, max: 1 },
        });
      },
    });
  });
  afterAll(async () => {
    runtime.release();
    await t.close();
  });

  it('answers 503 with Retry-After and its own code when the queue is full', async () => {
    runtime.hold();
    const running = infer(); // takes the only worker
    await runtime.untilRunsStarted(1);
    const queued = [infer(), infer()]; // fill the queue of 2
    await waitForPending(2);
    const refused = await infer();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body).toMatchObject({
      errorCode: 'SLUICE_QUEUE_FULL',
      error: 'the job queue of model `slow` version `1` is full (2 waiting); retry after 1 s or raise jobQueueSize',
    });
    runtime.release();
    for (const answer of await Promise.all([running, ...queued])) expect(answer.status).toBe(200);
  });

  it('answers 504 with its own code when the response timeout passes, and the worker keeps serving', async () => {
    runtime.hold();
    const timedOut = await infer();
    expect(timedOut).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT' } });
    runtime.release();
    expect(await infer()).toMatchObject({ status: 200, body: { outputs: [{ data: [1] }] } });
    expect((await requestJson(`${t.management}/models/slow`)).body).toMatchObject([{ workers: [{ status: 'READY' }] }]);
  });

  it('answers 503 with a different code when the model has no workers', async () => {
    await requestJson(`${t.management}/models/slow?min_worker=0&max_worker=1&synchronous=true`, { method: 'PUT' });
    expect(await infer()).toMatchObject({
      status: 503,
      body: { errorCode: 'SLUICE_MODEL_NO_WORKERS', error: 'model `slow` version `1` has no workers; scale it up with PUT /models/slow/1?min_worker=1' },
    });
    expect(await requestJson(`${t.inference}/ping`)).toMatchObject({ status: 200 });
    await requestJson(`${t.management}/models/slow?min_worker=1&synchronous=true`, { method: 'PUT' });
    expect(await infer()).toMatchObject({ status: 200 });
  });

  it('takes a request that arrives while the only worker is being replaced, and answers it from the replacement', async () => {
    runtime.failNextRuns(1);
    const retried = infer();
    for (;;) {
      const { body } = await requestJson(`${t.management}/models/slow`);
      if ((body as [{ workers: unknown[] }])[0].workers.length === 0) break; // failed, replacement not started yet
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const during = await infer();
    expect([during.status, (await retried).status]).toEqual([200, 200]);
  });

  async function waitForPending(count: number): Promise<void> {
    for (;;) {
      const { body } = await requestJson(`${t.management}/models/slow`);
      if ((body as [{ jobQueueStatus: { pendingRequests: number } }])[0].jobQueueStatus.pendingRequests >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
});
