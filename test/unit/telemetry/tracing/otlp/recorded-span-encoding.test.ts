import { describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, TraceFlags, trace, type Tracer } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { writeExportRequest, writeSpan } from '../../../../../src/telemetry/tracing/otlp/otlp-span-encoding.js';
import { ProtobufWriter } from '../../../../../src/telemetry/tracing/otlp/protobuf-writer.js';
import { CHAINED_ROOT_CONTEXT } from '../../../../../src/telemetry/tracing/recording/chained-context.js';
import { RecordedSpan } from '../../../../../src/telemetry/tracing/recording/recorded-span.js';
import { RecordedSpanContext } from '../../../../../src/telemetry/tracing/recording/recorded-span-context.js';
import { RecordingTracer } from '../../../../../src/telemetry/tracing/recording/recording-tracer.js';
import { TraceId } from '../../../../../src/telemetry/tracing/recording/trace-id.js';
import { RecordingSpanProcessor } from '../../../../support/telemetry/recording-span-processor.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

function recordingTracer(): { tracer: Tracer; processor: RecordingSpanProcessor } {
  const processor = new RecordingSpanProcessor();
  const resource = resourceFromAttributes({ 'service.name': 'sluice-test' });
  return { tracer: new RecordingTracer({ resource, scope: { name: 'sluice.test', version: '1.2.3' }, sampler: new AlwaysOnSampler(), processors: [processor] }), processor };
}

/** The request the encoder writes for spans of one resource and scope, through the fast paths for recorded spans. */
function encode(spans: readonly ReadableSpan[]): Buffer {
  const writer = new ProtobufWriter(16);
  for (const span of spans) writeSpan(writer, span);
  const first = spans[0]!;
  const request = new ProtobufWriter(16);
  writeExportRequest(request, [{ resource: first.resource, scope: first.instrumentationScope, spans: writer.written() }]);
  return Buffer.from(request.toBytes());
}

/** The request the SDK's serializer writes, reading the same spans through their ReadableSpan getters. */
function sdkEncode(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
}

describe('OTLP encoding of recorded spans, compared byte for byte with the SDK’s serializer', () => {
  it('encodes a recorded span whose parent is a recorded span, with every field', () => {
    const { tracer, processor } = recordingTracer();
    const caller = trace.setSpanContext(CHAINED_ROOT_CONTEXT, { traceId: TRACE_ID, spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('vendor=abc') });
    const parent = tracer.startSpan('POST /predictions/:model', { kind: SpanKind.SERVER }, caller);
    const span = tracer.startSpan('infer', { kind: SpanKind.INTERNAL, attributes: { 'model.name': 'iris', 'batch.size': 32, 'score': 0.75, 'cached': false, 'labels': ['a', 'b'] } }, trace.setSpan(caller, parent));
    span.addEvent('queued', { depth: 3 });
    span.recordException(new RangeError('too many inputs'));
    span.addLink({ context: parent.spanContext(), attributes: { reason: 'batch' } });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'failed' });
    span.end();
    parent.end();
    const spans = processor.ended;
    expect([spans[0] instanceof RecordedSpan, spans[0]?.spanContext() instanceof RecordedSpanContext, spans[0]?.parentSpanContext instanceof RecordedSpanContext]).toEqual([true, true, true]);
    expect(encode(spans)).toEqual(sdkEncode(spans));
  });

  it.each([
    ['whole milliseconds', 1_700_000_000_250, 1_700_000_000_251],
    ['sub-millisecond times', 1_700_000_000_250 + 0.123, 1_700_000_000_251 + 0.987654],
    ['times just below a whole second', 1_700_000_000_999 + 0.9999, 1_700_000_001_999 + 0.99999],
    ['times just past a whole second', 1_700_000_001_000 + 0.0000002, 1_700_000_002_000 + 0.0000004],
  ])('encodes the start and end of a recorded span as the SDK reads them (%s)', (_, start, end) => {
    const { tracer, processor } = recordingTracer();
    tracer.startSpan('timed', { startTime: start }, CHAINED_ROOT_CONTEXT).end(end);
    expect(encode(processor.ended)).toEqual(sdkEncode(processor.ended));
  });

  it('encodes a plain child of a recorded span, and the parent with attributes longer than a one-byte length', () => {
    const { tracer, processor } = recordingTracer();
    const server = tracer.startSpan('POST /predictions/:model', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'POST', 'url.path': '/predictions/mlp', 'sluice.request_id': '0f8fad5b-d9cb-469f-a165-70867728950e', 'user_agent.original': 'x'.repeat(150) } }, CHAINED_ROOT_CONTEXT);
    tracer.startSpan('preprocess', undefined, trace.setSpan(CHAINED_ROOT_CONTEXT, server)).end();
    server.setAttribute('http.response.status_code', 200);
    server.end();
    expect(encode(processor.ended)).toEqual(sdkEncode(processor.ended));
  });

  it('encodes an unsampled recorded span’s flags', () => {
    const { processor } = recordingTracer();
    const resource = resourceFromAttributes({ 'service.name': 'sluice-test' });
    const span = new RecordedSpan({ name: 'kept', kind: SpanKind.CLIENT, context: new RecordedSpanContext(TraceId.fromHex(TRACE_ID)!, 0x01020304, 0x05060708, TraceFlags.NONE, undefined), parent: undefined, startMillis: 1_700_000_000_000, attributes: undefined, links: undefined, resource, scope: { name: 'sluice.test', version: '1.2.3' }, processors: [processor] });
    span.end(1_700_000_000_001);
    expect(encode(processor.ended)).toEqual(sdkEncode(processor.ended));
  });

  it.each([
    ['a name that is not ASCII', 'préprocess'],
    ['a name longer than 127 characters', 'n'.repeat(128)],
    ['an empty name', ''],
  ])('encodes a recorded span with %s', (_, name) => {
    const { tracer, processor } = recordingTracer();
    const parent = tracer.startSpan('parent', undefined, CHAINED_ROOT_CONTEXT);
    tracer.startSpan(name, undefined, trace.setSpan(CHAINED_ROOT_CONTEXT, parent)).end();
    parent.end();
    expect(encode(processor.ended)).toEqual(sdkEncode(processor.ended));
  });

  it('encodes links to recorded spans, to spans of other servers and with attributes', () => {
    const { tracer, processor } = recordingTracer();
    const served = [tracer.startSpan('request 1', undefined, CHAINED_ROOT_CONTEXT), tracer.startSpan('request 2', undefined, CHAINED_ROOT_CONTEXT)];
    const remote = { traceId: TRACE_ID, spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true };
    const links = [...served.map((s) => ({ context: s.spanContext() })), { context: remote }, { context: served[0]!.spanContext(), attributes: { reason: 'retry' } }];
    tracer.startSpan('batch.execute', { links }, CHAINED_ROOT_CONTEXT).end();
    for (const span of served) span.end();
    expect(encode(processor.ended)).toEqual(sdkEncode(processor.ended));
  });

  it('encodes the times of many recorded spans as the SDK reads them', () => {
    const { tracer, processor } = recordingTracer();
    for (let i = 0; i < 2000; i++) {
      const start = 1_700_000_000_000 + i * 1.000_000_37 + i / 7;
      tracer.startSpan('timed', { startTime: start }, CHAINED_ROOT_CONTEXT).end(start + i * 0.000_123);
    }
    expect(encode(processor.ended)).toEqual(sdkEncode(processor.ended));
  });
});
