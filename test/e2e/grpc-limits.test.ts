import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { status, type Client, type ServiceError } from '@grpc/grpc-js';
import type { Handler } from '../../src/sdk/handler/handler.js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { writeIdentityModel, writeZerosOfShapeModel } from '../support/onnx-models.js';
import { addStoreModel } from '../support/store-models.js';
import { callError, float32Bytes, grpcClient, metadataOf, startInfer, unary } from '../support/grpc-clients.js';
import { copyDemoModels, startTestServer, type TestServer } from '../support/test-server.js';

/** A handler whose preprocessing always fails with a plain error (a bug in a handler). */
const BROKEN_HANDLER: Handler = {
  name: 'test-broken',
  preprocess: () => Promise.reject(new Error('division by zero')),
  postprocess: () => Promise.resolve([]),
};

function slowRequest(): Record<string, unknown> {
  return { model_name: 'slow', inputs: [{ name: 'input', datatype: 'FP32', shape: [1] }], raw_input_contents: [float32Bytes([1])] };
}

/** The `slow` model waits at a gate the test opens, so "queued" and "running" are under the test's control. */
describe('gRPC limits: deadlines, cancellation, queue, sizes, failures', () => {
  let t: TestServer;
  let client: Client;
  const runtime = new GatedRuntime((path) => path.includes('/slow/'));
  const inflight = (): number => t.server.core.registry.resolve('slow').scheduler.inflightCount();
  const untilInflight = async (count: number): Promise<void> => {
    while (inflight() !== count) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: ['iris'],
      handlers: [BROKEN_HANDLER],
      config: { grpc: { maxReceiveMessageBytes: 1024 } },
      prepare: async (store) => {
        await addStoreModel(store, 'slow', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'slow',
          version: '1',
          jobQueueSize: 1,
          batching: { maxBatchSize: 1 },
          workers: { min: 1, max: 1 },
        });
        await copyDemoModels(store, ['iris']);
        await addStoreModel(store, 'broken', (dir) => writeIdentityModel(dir, 'FP32', [-1]), { name: 'broken', version: '1', handler: 'test-broken' });
        await addStoreModel(store, 'zeros', writeZerosOfShapeModel, { name: 'zeros', version: '1' });
      },
    });
    client = grpcClient('oip', t.grpcInference);
  });
  afterAll(async () => {
    runtime.release();
    client.close();
    await t.close();
  });

  it('answers DEADLINE_EXCEEDED when the client deadline passes while queued, and the request leaves the queue without running', async () => {
    const startedBefore = runtime.runsStarted;
    runtime.hold();
    const running = startInfer(client, slowRequest());
    await runtime.untilRunsStarted(startedBefore + 1);
    const late = startInfer(client, slowRequest(), new Date(Date.now() + 300));
    expect(await callError(late.answer)).toMatchObject({ code: status.DEADLINE_EXCEEDED });
    await untilInflight(1); // the scheduler let go of it without waiting for the running one
    const next = startInfer(client, slowRequest());
    await untilInflight(2);
    runtime.release();
    await Promise.all([running.answer, next.answer]);
    expect(runtime.runsStarted - startedBefore).toBe(2); // the late request never ran
  });

  it('serves a call whose deadline is 30 days away, longer than one timer can wait', async () => {
    const { answer } = startInfer(client, slowRequest(), new Date(Date.now() + 30 * 24 * 3600 * 1000));
    expect(await answer).toMatchObject({ model_name: 'slow' });
  });

  it('never runs the queued work of a client that cancelled', async () => {
    const startedBefore = runtime.runsStarted;
    runtime.hold();
    const running = startInfer(client, slowRequest());
    await runtime.untilRunsStarted(startedBefore + 1);
    const cancelled = startInfer(client, slowRequest());
    await untilInflight(2);
    cancelled.call.cancel();
    expect(await callError(cancelled.answer)).toMatchObject({ code: status.CANCELLED });
    await untilInflight(1); // the server heard of the cancellation and took the request out of the queue
    runtime.release();
    await running.answer;
    expect(runtime.runsStarted - startedBefore).toBe(1);
  });

  it('answers UNAVAILABLE with retry-after when the queue is full', async () => {
    runtime.hold();
    const running = startInfer(client, slowRequest());
    await untilInflight(1);
    const queued = startInfer(client, slowRequest());
    await untilInflight(2);
    const error = await unary(client, 'ModelInfer', slowRequest()).catch((e: unknown) => e as ServiceError);
    expect(error).toMatchObject({ code: status.UNAVAILABLE, details: 'the job queue of model `slow` version `1` is full (1 waiting); retry after 1 s or raise jobQueueSize' });
    expect((error as ServiceError).metadata.get('retry-after')).toEqual(['1']);
    expect((error as ServiceError).metadata.get('sluice-error-code')).toEqual(['SLUICE_QUEUE_FULL']);
    runtime.release();
    await Promise.all([running.answer, queued.answer]);
  });

  it('answers DEADLINE_EXCEEDED with SLUICE_RESPONSE_TIMEOUT when the request’s own timeout (metadata) passes while queued', async () => {
    runtime.hold();
    const running = startInfer(client, slowRequest());
    await untilInflight(1);
    const error = await callError(unary(client, 'ModelInfer', slowRequest(), {}, metadataOf({ 'x-sluice-timeout-ms': '50' })));
    expect(error).toMatchObject({ code: status.DEADLINE_EXCEEDED, errorCode: 'SLUICE_RESPONSE_TIMEOUT' });
    runtime.release();
    await running.answer;
  });

  it('refuses a message over grpc.maxReceiveMessageBytes with RESOURCE_EXHAUSTED', async () => {
    const request = { model_name: 'iris', inputs: [{ name: 'input', datatype: 'FP32', shape: [100, 4] }], raw_input_contents: [float32Bytes(new Array<number>(400).fill(1))] };
    expect(await callError(unary(client, 'ModelInfer', request))).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
  });

  it('refuses an output too large to send as typed contents with RESOURCE_EXHAUSTED and SLUICE_RESPONSE_TOO_LARGE, and keeps serving', async () => {
    const zeros = (rows: number): Record<string, unknown> => ({
      model_name: 'zeros',
      inputs: [{ name: 'shape', datatype: 'INT64', shape: [2], contents: { int64_contents: [String(rows), '4097'] } }],
    });
    expect(await callError(unary(client, 'ModelInfer', zeros(4097)))).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      details: 'output `zeros` holds 16785409 values, more than the 16777216 an answer can spell out one by one; send the inputs as raw_input_contents, and the outputs come back as raw_output_contents, or send fewer rows',
      errorCode: 'SLUICE_RESPONSE_TOO_LARGE',
    });
    expect(await unary(client, 'ModelInfer', zeros(1))).toMatchObject({ outputs: [{ name: 'zeros', shape: ['1', '4097'] }] });
  });

  it('answers INTERNAL with the Sluice message when a handler fails', async () => {
    const ts = grpcClient('torchserveInference', t.grpcInference);
    const error = await callError(unary(ts, 'Predictions', { model_name: 'broken', input: { data: Buffer.from('[1]') } }));
    ts.close();
    expect(error).toEqual({
      code: status.INTERNAL,
      details: 'handler `test-broken` of model `broken` failed in preprocess: division by zero',
      errorCode: 'SLUICE_HANDLER_FAILED',
    });
  });

  it('refuses a malformed metadata knob with INVALID_ARGUMENT', async () => {
    const error = await callError(unary(client, 'ModelInfer', slowRequest(), {}, metadataOf({ 'x-sluice-priority': 'high' })));
    expect(error).toEqual({ code: status.INVALID_ARGUMENT, details: 'the x-sluice-priority metadata must be an integer of at least 1, got "high"', errorCode: 'SLUICE_REQUEST_INVALID' });
  });
});
