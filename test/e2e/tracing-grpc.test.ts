import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Client } from '@grpc/grpc-js';
import { callError, grpcClient, metadataOf, unary } from '../support/grpc-clients.js';
import { childrenOf, only, SpanRecorder, traceparent } from '../support/telemetry/span-recorder.js';
import { oneTokenProvider } from '../support/one-token-provider.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN_ID = 'b7ad6b7169203331';
const SPAN_NAME = 'inference.GRPCInferenceService/ModelInfer';
const SETOSA = [5.1, 3.5, 1.4, 0.2];


describe('traces of gRPC calls', () => {
  const recorder = new SpanRecorder();
  let t: TestServer;
  let client: Client;
  const infer = (metadata: Record<string, string>, model = 'iris'): Promise<unknown> =>
    unary(client, 'ModelInfer', { model_name: model, inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], contents: { fp32_contents: SETOSA } }] }, {}, metadataOf(metadata));

  beforeAll(async () => {
    t = await startTestServer({ demoModels: ['iris'], telemetry: recorder.telemetry, guards: { inference: oneTokenProvider } });
    client = grpcClient('oip', t.grpcInference);
  });
  afterAll(async () => {
    client.close();
    await t.close();
    await recorder.telemetry.shutdown();
  });
  beforeEach(() => {
    recorder.reset();
  });

  it('continues the traceparent of the call metadata with an RPC server span holding auth and queue.wait', async () => {
    await infer({ traceparent: traceparent(TRACE_ID, CALLER_SPAN_ID), authorization: 'Bearer good' });
    const spans = await recorder.until((s) => s.some((span) => span.name === SPAN_NAME));
    const server = only(spans, SPAN_NAME);
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    expect(server.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.service': 'inference.GRPCInferenceService', 'rpc.method': 'ModelInfer', 'rpc.grpc.status_code': 0 });
    expect(childrenOf(spans, server).map((s) => s.name).sort()).toEqual(['auth', 'queue.wait']);
  });

  it('marks the span of a failed call ERROR with its gRPC status', async () => {
    const failure = await callError(infer({ authorization: 'Bearer good' }, 'no-such-model'));
    expect(failure.code).toBe(5);
    const spans = await recorder.until((s) => s.some((span) => span.name === SPAN_NAME));
    const server = only(spans, SPAN_NAME);
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes['rpc.grpc.status_code']).toBe(5);
  });

  it('records a refused call with a failed auth span and nothing after it', async () => {
    const failure = await callError(infer({ authorization: 'Bearer bad' }));
    expect(failure.code).toBe(16);
    const spans = await recorder.until((s) => s.some((span) => span.name === SPAN_NAME));
    const server = only(spans, SPAN_NAME);
    expect(childrenOf(spans, server).map((s) => [s.name, s.status.code])).toEqual([['auth', SpanStatusCode.ERROR]]);
  });
});
