import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Client } from '@grpc/grpc-js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { callError, grpcClient, unary } from '../support/grpc-clients.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

interface InferResponse {
  outputs: { contents: { fp32_contents: number[] } }[];
}

/**
 * `jobQueueSize` against requests that arrive together: the gRPC calls one read of a connection delivers
 * are gathered for the end of the event-loop turn. The `tight` model (identity, one worker, a queue of
 * one) and the `patient` one (the same, batching up to 4 rows with a batch delay of a minute) wait at a
 * gate the test opens.
 */
describe('the job queue and requests that arrive together', () => {
  let t: TestServer;
  let client: Client;
  const runtime = new GatedRuntime((path) => path.includes('/tight/') || path.includes('/patient/'));
  const call = (value: number, model = 'tight', values = [value]): Promise<InferResponse> =>
    unary<InferResponse>(client, 'ModelInfer', { model_name: model, inputs: [{ name: 'input', datatype: 'FP32', shape: [values.length], contents: { fp32_contents: values } }] });
  const valueOf = (response: InferResponse): number | undefined => response.outputs[0]?.contents.fp32_contents[0];

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: [],
      prepare: async (store) => {
        await addStoreModel(store, 'tight', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'tight',
          version: '1',
          jobQueueSize: 1,
          workers: { min: 1, max: 1 },
        });
        await addStoreModel(store, 'patient', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'patient',
          version: '1',
          jobQueueSize: 1,
          workers: { min: 1, max: 1 },
          batching: { maxBatchSize: 4, maxBatchDelayMs: 60_000 },
        });
      },
    });
    client = grpcClient('oip', t.grpcInference);
    await call(0); // connected: the calls below go out together
  });
  afterAll(async () => {
    runtime.release();
    client.close();
    await t.close();
  });

  it('takes two calls sent together to an idle worker with a queue of one', async () => {
    const answers = await Promise.all([call(1), call(2)]);
    expect(answers.map(valueOf)).toEqual([1, 2]);
  });

  it('refuses a third call sent with them: one runs, one waits, and the queue of one is full', async () => {
    runtime.hold();
    const taken = [call(1), call(2)];
    const refused = await callError(call(3));
    runtime.release();
    const answers = await Promise.all(taken);
    expect([refused.errorCode, answers.map(valueOf)]).toEqual(['SLUICE_QUEUE_FULL', [1, 2]]);
  });

  it('runs calls taken beyond a queue of one at once, even when the model waits for fuller batches', async () => {
    await call(0, 'patient', [1, 2, 3, 4]); // a batch of 4 rows: the batch delay now waits for 4
    runtime.hold();
    const taken = [call(5, 'patient'), call(6, 'patient'), call(7, 'patient')];
    const status = await queueStatusOnceHolding('patient', 3);
    runtime.release();
    expect(status).toEqual({ remainingCapacity: 1, pendingRequests: 0, executing: 3 });
    expect((await Promise.all(taken)).map(valueOf)).toEqual([5, 6, 7]);
  });

  /** The `jobQueueStatus` of `model` once it holds `count` requests, queued or running. */
  async function queueStatusOnceHolding(model: string, count: number): Promise<Record<string, number>> {
    for (;;) {
      const { body } = await requestJson(`${t.management}/models/${model}`);
      const status = (body as [{ jobQueueStatus: { pendingRequests: number; executing: number } }])[0].jobQueueStatus;
      if (status.pendingRequests + status.executing >= count) return status;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
});
