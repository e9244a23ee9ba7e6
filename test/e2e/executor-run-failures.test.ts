import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeLookupModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

type Answer = Awaited<ReturnType<typeof requestJson>>;

/**
 * A run that ONNX Runtime refuses because of one request's values (an id beyond the lookup table), in a
 * batch with well-formed requests, on both executors. The `lookup` models wait at a gate the test opens,
 * so the requests are sure to share one batch.
 */
describe.each(['cpu', 'gpu'])('a run failure in a batch on the %s executor', (executor) => {
  let t: TestServer;
  const runtime = new GatedRuntime((path) => path.includes('/lookup/'));
  const lookup = (ids: number[]): Promise<Answer> =>
    requestJson(`${t.inference}/v2/models/lookup/infer`, {
      method: 'POST',
      json: { inputs: [{ name: 'ids', shape: [ids.length], datatype: 'INT64', data: ids }] },
    });
  const pending = async (): Promise<number> =>
    ((await requestJson(`${t.management}/models/lookup`)).body as [{ jobQueueStatus: { pendingRequests: number } }])[0].jobQueueStatus.pendingRequests;

  /** Sends `batch` while a first request holds the only instance, then lets them all run. */
  async function runTogether(batch: number[][]): Promise<Answer[]> {
    runtime.hold();
    const blocker = lookup([0]);
    await runtime.untilRunsStarted(runtime.runsStarted + 1);
    const answers = batch.map((ids) => lookup(ids));
    while ((await pending()) < batch.length) await new Promise((resolve) => setTimeout(resolve, 5));
    runtime.release();
    await blocker;
    return Promise.all(answers);
  }

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: [],
      prepare: async (store) => {
        await addStoreModel(store, 'lookup', writeLookupModel, {
          name: 'lookup',
          version: '1',
          executor,
          batching: { maxBatchSize: 8 },
          ...(executor === 'gpu' ? { executorOptions: { warmUp: false } } : {}),
        });
      },
    });
  });
  afterAll(async () => {
    runtime.release();
    await t.close();
  });

  it('answers the batch-mates of a request the model cannot run, and that request with its own error', async () => {
    const before = runtime.runRows.length;
    const answers = await runTogether([[1], [99], [3, 4]]);
    expect({
      batchRows: runtime.runRows[before + 1],
      answers: answers.map((answer) => [answer.status, answer.body]),
    }).toEqual({
      batchRows: 4,
      answers: [
        [200, expect.objectContaining({ outputs: [{ name: 'values', datatype: 'FP32', shape: [1], data: [11] }] })],
        [500, { error: expect.stringContaining('idx=99'), errorCode: 'SLUICE_INFERENCE_FAILED' }],
        [200, expect.objectContaining({ outputs: [{ name: 'values', datatype: 'FP32', shape: [2], data: [13, 14] }] })],
      ],
    });
  });

  it('names the model file of a failed run without the folders the server keeps it in', async () => {
    const answer = await lookup([99]);
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 500,
      body: { error: expect.stringMatching(/^ONNX Runtime failed to run model file `lookup\.onnx`: .*idx=99/), errorCode: 'SLUICE_INFERENCE_FAILED' },
    });
    expect(JSON.stringify(answer.body)).not.toContain(t.dir);
  });

  it('keeps serving on the same instance after the failure', async () => {
    const [described] = (await requestJson(`${t.management}/models/lookup`)).body as [{ workers: { id: string; status: string }[] }];
    const answer = await lookup([2]);
    const [after] = (await requestJson(`${t.management}/models/lookup`)).body as [{ workers: { id: string; status: string }[] }];
    expect({ status: answer.status, workers: after.workers.map((w) => [w.id, w.status]) }).toEqual({
      status: 200,
      workers: described.workers.map((w) => [w.id, 'READY']),
    });
  });
});
