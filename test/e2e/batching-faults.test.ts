import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

type Answer = Awaited<ReturnType<typeof requestJson>>;

/**
 * Faults and bad timing around the dynamic batcher, against a real server. The `echo` model (identity,
 * FP32 [-1,-1]) waits at a gate the test opens, so "queued" and "running" are under the test's control.
 */
describe('batching under faults', () => {
  let t: TestServer;
  const runtime = new GatedRuntime((path) => path.includes('/echo/'));
  const echo = (rows: number[][], headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Answer> =>
    requestJson(`${t.inference}/v2/models/echo/infer`, {
      method: 'POST',
      headers,
      json: { inputs: [{ name: 'input', shape: [rows.length, rows[0]?.length ?? 0], datatype: 'FP32', data: rows }] },
      ...(signal ? { signal } : {}),
    });
  const pending = async (): Promise<number> =>
    ((await requestJson(`${t.management}/models/echo`)).body as [{ jobQueueStatus: { pendingRequests: number } }])[0].jobQueueStatus.pendingRequests;
  const untilPending = async (count: number): Promise<void> => {
    while ((await pending()) < count) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const dataOf = (answer: Answer): number[] => (answer.body as { outputs: [{ data: number[] }] }).outputs[0].data;

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: ['mlp'],
      prepare: async (store) => {
        await addStoreModel(store, 'echo', (dir) => writeIdentityModel(dir, 'FP32', [-1, -1]), {
          name: 'echo',
          version: '1',
          batching: { maxBatchSize: 16, priorityLevels: 3 },
          workers: { min: 1, max: 4 },
          jobQueueSize: 20,
        });
      },
    });
  });
  afterAll(async () => {
    runtime.release();
    await t.close();
  });

  it('batches requests that arrive while the instance is busy', async () => {
    runtime.hold();
    const first = echo([[1, 1]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const rest = [echo([[2, 2]]), echo([[3, 3]]), echo([[4, 4], [5, 5]])];
    await untilPending(3);
    const before = runtime.runRows.length;
    runtime.release();
    const answers = await Promise.all([first, ...rest]);
    expect(answers.map(dataOf)).toEqual([[1, 1], [2, 2], [3, 3], [4, 4, 5, 5]]);
    expect(runtime.runRows.slice(before)).toEqual([4]); // the three waiting requests ran as one batch of 4 rows
  });

  it('keeps mixed shapes of one burst in separate batches, each answer correct', async () => {
    runtime.hold();
    const blocker = echo([[0]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const burst = [echo([[1, 2]]), echo([[3, 4, 5]]), echo([[6, 7]]), echo([[8, 9, 10]])];
    await untilPending(4);
    const before = runtime.runRows.length;
    runtime.release();
    const answers = await Promise.all([blocker, ...burst]);
    expect(answers.slice(1).map(dataOf)).toEqual([[1, 2], [3, 4, 5], [6, 7], [8, 9, 10]]);
    expect(runtime.runRows.slice(before).sort()).toEqual([2, 2]);
  });

  it('drops a queued request whose client disconnected, without running it', async () => {
    runtime.hold();
    const running = echo([[1]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const controller = new AbortController();
    const abandoned = echo([[2], [2], [2]], {}, controller.signal).catch((error: unknown) => error);
    await untilPending(1);
    controller.abort();
    await abandoned;
    await new Promise((resolve) => setTimeout(resolve, 20)); // let the server see the closed socket
    const before = runtime.runRows.length;
    runtime.release();
    expect((await running).status).toBe(200);
    expect(await echo([[9]])).toMatchObject({ status: 200 });
    expect(runtime.runRows.slice(before)).toEqual([1]); // only the later request ran; the 3 abandoned rows never did
  });

  it('answers 504 when a request’s own timeout passes while queued, and never runs it', async () => {
    runtime.hold();
    const running = echo([[1]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const late = await echo([[7], [7]], { 'x-sluice-timeout-ms': '30' });
    expect(late).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT' } });
    const before = runtime.runRows.length;
    runtime.release();
    expect((await running).status).toBe(200);
    expect(runtime.runRows.slice(before)).toEqual([]);
  });

  it('never holds a lone request with a timeout for batch-mates past that timeout, after a burst', async () => {
    await requestJson(`${t.management}/models?url=echo&model_name=echo-delay&max_batch_delay=1000`, { method: 'POST' });
    const delayed = (rows: number[][], headers: Record<string, string> = {}): Promise<Answer> =>
      requestJson(`${t.inference}/v2/models/echo-delay/infer`, {
        method: 'POST',
        headers,
        json: { inputs: [{ name: 'input', shape: [rows.length, 1], datatype: 'FP32', data: rows }] },
      });
    runtime.hold();
    const first = delayed([[1]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const burst = [delayed([[2]]), delayed([[3]]), delayed([[4]])];
    while (((await requestJson(`${t.management}/models/echo-delay`)).body as [{ jobQueueStatus: { pendingRequests: number } }])[0].jobQueueStatus.pendingRequests < 3) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    runtime.release();
    await Promise.all([first, ...burst]); // the last batch held 3 rows: the delay now expects 3
    const lone = [];
    for (const value of [5, 6, 7]) lone.push(await delayed([[value]], { 'x-sluice-timeout-ms': '200' }));
    await requestJson(`${t.management}/models/echo-delay`, { method: 'DELETE' });
    expect(lone.map((answer) => [answer.status, dataOf(answer)])).toEqual([
      [200, [5]],
      [200, [6]],
      [200, [7]],
    ]);
  });

  it('takes priority and timeout (µs) from OIP parameters too', async () => {
    runtime.hold();
    const running = echo([[1]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const late = await requestJson(`${t.inference}/v2/models/echo/infer`, {
      method: 'POST',
      json: { parameters: { timeout: 30_000, priority: 2 }, inputs: [{ name: 'input', shape: [1, 1], datatype: 'FP32', data: [3] }] },
    });
    expect(late).toMatchObject({ status: 504, body: { errorCode: 'SLUICE_RESPONSE_TIMEOUT' } });
    runtime.release();
    expect((await running).status).toBe(200);
  });

  it('runs a higher-priority request before earlier ones', async () => {
    runtime.hold();
    const running = echo([[0]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    // different widths keep them out of one batch; different row counts show which ran first
    const low = echo([[1], [1], [1]], { 'x-sluice-priority': '3' });
    await untilPending(1);
    const high = echo([[2, 2], [2, 2]], { 'x-sluice-priority': '1' });
    await untilPending(2);
    const before = runtime.runRows.length;
    runtime.release();
    await Promise.all([running, low, high]);
    expect(runtime.runRows.slice(before)).toEqual([2, 3]);
    expect(dataOf(await high)).toEqual([2, 2, 2, 2]);
  });

  it('refuses a priority the model does not have', async () => {
    expect(await echo([[1]], { 'x-sluice-priority': '7' })).toMatchObject({
      status: 400,
      body: { error: 'priority 7 is out of range; model `echo` version `1` has priority levels 1 (highest) to 3' },
    });
    expect(await echo([[1]], { 'x-sluice-priority': 'high' })).toMatchObject({
      status: 400,
      body: { error: 'the x-sluice-priority header must be an integer of at least 1, got "high"' },
    });
  });

  it('answers queued requests with 503 "model unloading" when the model is unregistered, and nothing hangs', async () => {
    await requestJson(`${t.management}/models?url=echo&model_name=echo-tmp`, { method: 'POST' });
    const tmp = (rows: number[][]): Promise<Answer> =>
      requestJson(`${t.inference}/v2/models/echo-tmp/infer`, { method: 'POST', json: { inputs: [{ name: 'input', shape: [1, 1], datatype: 'FP32', data: rows }] } });
    runtime.hold();
    const running = tmp([[1]]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const queued = [tmp([[2]]), tmp([[3]])];
    while (((await requestJson(`${t.management}/models/echo-tmp`)).body as [{ jobQueueStatus: { pendingRequests: number } }])[0].jobQueueStatus.pendingRequests < 2) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const unregistering = requestJson(`${t.management}/models/echo-tmp`, { method: 'DELETE' });
    for (const answer of await Promise.all(queued)) {
      expect(answer).toMatchObject({ status: 503, body: { errorCode: 'SLUICE_MODEL_UNLOADING' } });
    }
    runtime.release();
    expect((await running).status).toBe(200);
    expect(await unregistering).toMatchObject({ status: 200 });
  });

  it('replaces an instance that fails fatally; its batch is retried and later requests succeed', async () => {
    const workersBefore = ((await requestJson(`${t.management}/models/echo`)).body as [{ workers: { id: string }[] }])[0].workers.map((w) => w.id);
    runtime.failNextRuns(1);
    expect(await echo([[4, 2]])).toMatchObject({ status: 200, body: { outputs: [{ data: [4, 2] }] } });
    expect(await echo([[5]])).toMatchObject({ status: 200 });
    const workersAfter = ((await requestJson(`${t.management}/models/echo`)).body as [{ workers: { id: string; status: string }[] }])[0].workers;
    expect(workersAfter.map((w) => w.id)).not.toEqual(workersBefore);
    expect(workersAfter.every((w) => w.status === 'READY')).toBe(true);
  });

  it('loses nothing when scaled down under load', async () => {
    await requestJson(`${t.management}/models/echo?min_worker=4&max_worker=4&synchronous=true`, { method: 'PUT' });
    const burst = Array.from({ length: 18 }, (_, i) => echo([[i, i + 0.5]]));
    await requestJson(`${t.management}/models/echo?min_worker=1&max_worker=4&synchronous=true`, { method: 'PUT' });
    const answers = await Promise.all(burst);
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(dataOf(answer)).toEqual([i, i + 0.5]);
    });
    expect(((await requestJson(`${t.management}/models/echo`)).body as [{ workers: unknown[] }])[0].workers).toHaveLength(1);
  });

  it('answers every request of a 2× saturation burst correctly or with a clean 503', async () => {
    const input = (i: number): number[] => Array.from({ length: 64 }, (_, j) => Math.sin(i + j));
    const expected = async (i: number): Promise<number[]> => {
      const { body } = await requestJson(`${t.inference}/predictions/mlp`, { method: 'POST', json: input(i) });
      return body as number[];
    };
    const singles = await Promise.all(Array.from({ length: 10 }, (_, i) => expected(i)));
    await requestJson(`${t.management}/models/mlp?min_worker=1&max_worker=1&synchronous=true`, { method: 'PUT' });
    const burst = await Promise.all(
      Array.from({ length: 330 }, (_, k) => requestJson(`${t.inference}/predictions/mlp`, { method: 'POST', json: input(k % 10) }).then((a) => ({ k, a }))),
    );
    let served = 0;
    for (const { k, a } of burst) {
      if (a.status === 503) {
        expect(a.body).toMatchObject({ errorCode: 'SLUICE_QUEUE_FULL' });
        continue;
      }
      expect(a.status).toBe(200);
      (a.body as number[]).forEach((value, j) => {
        expect(value).toBeCloseTo(singles[k % 10]![j]!, 4);
      });
      served += 1;
    }
    expect(served).toBeGreaterThan(0);
  });
});
