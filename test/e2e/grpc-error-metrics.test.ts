import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { status, type Client, type ServiceClientConstructor, type ServiceError } from '@grpc/grpc-js';
import { frameMessage } from '../../src/api/grpc/transport/grpc-message-decoder.js';
import { GatedRuntime } from '../support/gated-runtime.js';
import { callError, float32Bytes, grpcClient, metadataOf, startInfer, unary } from '../support/grpc-clients.js';
import { writeIdentityModel } from '../support/onnx-models.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { openRawGrpcCall, rawGrpcSession } from '../support/raw-grpc-call.js';
import { addStoreModel } from '../support/store-models.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

function slowRequest(): Record<string, unknown> {
  return { model_name: 'slow', inputs: [{ name: 'input', datatype: 'FP32', shape: [1] }], raw_input_contents: [float32Bytes([1])] };
}

/**
 * Failed gRPC calls count in `sluice_errors_total` as failed HTTP requests do: once each, under the Sluice
 * code of the failure, with `transport="grpc"`; the `slow` model waits at a gate the test opens.
 */
describe('gRPC error answers in sluice_errors_total', () => {
  let t: TestServer;
  let client: Client;
  let before: Map<string, number>;
  const runtime = new GatedRuntime((path) => path.includes('/slow/'));
  const inflight = (): number => t.server.core.registry.resolve('slow').scheduler.inflightCount();
  const untilInflight = async (count: number): Promise<void> => {
    while (inflight() !== count) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  /** `sluice_errors_total` of transport `grpc`, by code. */
  const grpcErrors = async (): Promise<Map<string, number>> => {
    const family = parsePrometheusText(await (await fetch(`${t.metrics}/metrics`)).text()).get('sluice_errors_total');
    const counts = new Map<string, number>();
    for (const sample of family?.samples ?? []) {
      const code = sample.labels['code'];
      if (sample.labels['transport'] === 'grpc' && code !== undefined) counts.set(code, sample.value);
    }
    return counts;
  };
  /** What was counted since the test began, by code. */
  const countedSince = async (): Promise<Record<string, number>> => {
    const now = await grpcErrors();
    const added: Record<string, number> = {};
    for (const [code, value] of now) if (value !== (before.get(code) ?? 0)) added[code] = value - (before.get(code) ?? 0);
    return added;
  };

  beforeAll(async () => {
    t = await startTestServer({
      runtime,
      demoModels: [],
      config: { grpc: { maxReceiveMessageBytes: 1024 } },
      prepare: async (store) => {
        await addStoreModel(store, 'slow', (dir) => writeIdentityModel(dir, 'FP32', [-1]), {
          name: 'slow',
          version: '1',
          batching: { maxBatchSize: 1 },
          workers: { min: 1, max: 1 },
        });
      },
    });
    client = grpcClient('oip', t.grpcInference);
  });
  beforeEach(async () => {
    before = await grpcErrors();
  });
  afterAll(async () => {
    runtime.release();
    client.close();
    await t.close();
  });

  it('counts a call refused as the client’s fault under the code of its refusal', async () => {
    await callError(unary(client, 'ModelInfer', slowRequest(), {}, metadataOf({ 'x-sluice-priority': 'high' })));
    expect(await countedSince()).toEqual({ SLUICE_REQUEST_INVALID: 1 });
  });

  it('counts a call for a model that does not exist as SLUICE_MODEL_NOT_FOUND', async () => {
    await callError(unary(client, 'ModelInfer', { ...slowRequest(), model_name: 'tulip' }));
    expect(await countedSince()).toEqual({ SLUICE_MODEL_NOT_FOUND: 1 });
  });

  it('counts nothing for a call that succeeds', async () => {
    await unary(client, 'ModelInfer', slowRequest());
    expect(await countedSince()).toEqual({});
  });

  it('counts a message over grpc.maxReceiveMessageBytes as SLUICE_REQUEST_TOO_LARGE, as HTTP counts a body over its limit', async () => {
    const request = { ...slowRequest(), inputs: [{ name: 'input', datatype: 'FP32', shape: [400] }], raw_input_contents: [float32Bytes(new Array<number>(400).fill(1))] };
    expect(await callError(unary(client, 'ModelInfer', request))).toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    expect(await countedSince()).toEqual({ SLUICE_REQUEST_TOO_LARGE: 1 });
  });

  it('counts a call to a method the server does not have as SLUICE_ROUTE_NOT_FOUND', async () => {
    const answer = new Promise<ServiceError | null>((resolve) => {
      client.makeUnaryRequest(
        '/inference.GRPCInferenceService/NoSuchMethod',
        (value: Buffer) => value,
        (bytes: Buffer) => bytes,
        Buffer.alloc(0),
        (error) => {
          resolve(error);
        },
      );
    });
    expect((await answer)?.code).toBe(status.UNIMPLEMENTED);
    expect(await countedSince()).toEqual({ SLUICE_ROUTE_NOT_FOUND: 1 });
  });

  it('counts a call whose deadline (grpc-timeout) passed while it was queued as SLUICE_RESPONSE_TIMEOUT', async () => {
    runtime.hold();
    const running = startInfer(client, slowRequest());
    await untilInflight(1);
    // A raw call: a gRPC library would also cancel at its deadline, and the server would then see a client
    // that left, whichever came first.
    const service = (client.constructor as ServiceClientConstructor).service;
    const body = frameMessage(service['ModelInfer']?.requestSerialize(slowRequest()) ?? Buffer.alloc(0));
    const session = rawGrpcSession(t.grpcInference);
    const late = await openRawGrpcCall(session, '/inference.GRPCInferenceService/ModelInfer', body, { 'grpc-timeout': '100m' }).answer;
    session.close();
    await untilInflight(1);
    runtime.release();
    await running.answer;
    expect([late.status, await countedSince()]).toEqual([String(status.DEADLINE_EXCEEDED), { SLUICE_RESPONSE_TIMEOUT: 1 }]);
  });

  it('counts a call whose client cancelled it while it was queued as SLUICE_REQUEST_INVALID, as HTTP counts a client that left', async () => {
    runtime.hold();
    const running = startInfer(client, slowRequest());
    await untilInflight(1);
    const cancelled = startInfer(client, slowRequest());
    await untilInflight(2);
    cancelled.call.cancel();
    await callError(cancelled.answer);
    await untilInflight(1);
    runtime.release();
    await running.answer;
    expect(await countedSince()).toEqual({ SLUICE_REQUEST_INVALID: 1 });
  });
});
