import { describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, type TextMapGetter } from '@opentelemetry/api';
import { SPAN } from '../../../../src/telemetry/telemetry-names.js';
import { endRpcServerSpan, startRpcServerSpan } from '../../../../src/telemetry/tracing/server-span.js';
import { withChildSpan } from '../../../../src/telemetry/tracing/span-helpers.js';
import { Telemetry } from '../../../../src/telemetry/tracing/telemetry.js';
import { SpanRecorder, childrenOf, only } from '../../../support/telemetry/span-recorder.js';

/** gRPC metadata as a map of lists, read like `Metadata.get(key)[0]`. */
const metadataGetter: TextMapGetter<Map<string, string[]>> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key)?.[0],
};

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const metadata = (): Map<string, string[]> => new Map([['traceparent', [`00-${TRACE_ID}-00f067aa0ba902b7-01`]], ['baggage', ['tenant=acme']]]);
const CALL = { service: 'inference.GRPCInferenceService', method: 'ModelInfer' };

describe('RPC server spans', () => {
  it('continue the trace in the call’s metadata with rpc.* attributes', () => {
    const recorder = new SpanRecorder();
    endRpcServerSpan(startRpcServerSpan(recorder.telemetry, CALL, metadata(), metadataGetter), 0);
    const span = only(recorder.spans, 'inference.GRPCInferenceService/ModelInfer');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(span.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.service': CALL.service, 'rpc.method': 'ModelInfer', 'rpc.grpc.status_code': 0 });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('make the spans started with their context as parent their children (auth, envelope decode)', async () => {
    const recorder = new SpanRecorder();
    const server = startRpcServerSpan(recorder.telemetry, CALL, metadata(), metadataGetter)!;
    await withChildSpan(server.context, SPAN.auth, {}, () => 'ok');
    endRpcServerSpan(server, 0);
    expect(childrenOf(recorder.spans, only(recorder.spans, 'inference.GRPCInferenceService/ModelInfer')).map((s) => s.name)).toEqual(['auth']);
  });

  it('fail with a non-zero status code and record the exception', () => {
    const recorder = new SpanRecorder();
    endRpcServerSpan(startRpcServerSpan(recorder.telemetry, CALL, metadata(), metadataGetter), 5, new Error('no such model'));
    const span = only(recorder.spans, 'inference.GRPCInferenceService/ModelInfer');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no such model' });
    expect(span.events.map((e) => e.name)).toEqual(['exception']);
  });

  it('are not started when tracing is off', () => {
    expect(startRpcServerSpan(new Telemetry(), CALL, metadata(), metadataGetter)).toBeUndefined();
  });
});

describe('withChildSpan', () => {
  it('only runs its work outside a traced request', async () => {
    expect(await withChildSpan(undefined, SPAN.envelopeDecode, {}, (child) => child)).toBeUndefined();
  });

  it('hands its work the child span’s context, so that spans started there nest under it', async () => {
    const recorder = new SpanRecorder();
    const server = startRpcServerSpan(recorder.telemetry, CALL, metadata(), metadataGetter)!;
    await withChildSpan(server.context, SPAN.preprocess, {}, (child) => withChildSpan(child, 'inner', {}, () => 'ok'));
    endRpcServerSpan(server, 0);
    expect(only(recorder.spans, 'inner').parentSpanContext?.spanId).toBe(only(recorder.spans, SPAN.preprocess).spanContext().spanId);
  });

  it('marks its span failed and rethrows', async () => {
    const recorder = new SpanRecorder();
    const server = startRpcServerSpan(recorder.telemetry, CALL, metadata(), metadataGetter)!;
    const failing = withChildSpan(server.context, SPAN.envelopeDecode, { 'sluice.envelope': 'cloudevents' }, () => {
      throw new Error('not a CloudEvent');
    });
    await expect(failing).rejects.toThrow('not a CloudEvent');
    const span = only(recorder.spans, 'envelope.decode');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['sluice.envelope']).toBe('cloudevents');
  });

  it('marks its span failed when the work’s promise rejects', async () => {
    const recorder = new SpanRecorder();
    const server = startRpcServerSpan(recorder.telemetry, CALL, metadata(), metadataGetter)!;
    await expect(withChildSpan(server.context, SPAN.postprocess, {}, () => Promise.reject(new Error('no label for class 7')))).rejects.toThrow('no label for class 7');
    expect(only(recorder.spans, SPAN.postprocess).status).toEqual({ code: SpanStatusCode.ERROR, message: 'no label for class 7' });
  });

  it('ends its span only once the work’s promise settles', async () => {
    const recorder = new SpanRecorder();
    const server = startRpcServerSpan(recorder.telemetry, CALL, metadata(), metadataGetter)!;
    let finish: (value: string) => void = () => undefined;
    const running = withChildSpan(server.context, SPAN.preprocess, {}, () => new Promise<string>((resolve) => (finish = resolve)));
    await Promise.resolve();
    expect(recorder.spans.map((s) => s.name)).toEqual([]);
    finish('done');
    expect(await running).toBe('done');
    expect(recorder.spans.map((s) => s.name)).toEqual([SPAN.preprocess]);
  });

  it('answers with a rejected promise, not a throw, when untraced work throws at once', async () => {
    const failing = withChildSpan(undefined, SPAN.auth, {}, () => {
      throw new Error('no credentials');
    });
    await expect(failing).rejects.toThrow('no credentials');
  });
});
