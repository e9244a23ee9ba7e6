import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Link, type SpanContext, type Tracer } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanLimits } from '@opentelemetry/sdk-trace-base';
import { writeExportRequest, writeSpan, type EncodedScopeSpans } from '../../../../../src/telemetry/tracing/otlp/otlp-span-encoding.js';
import { ProtobufWriter } from '../../../../../src/telemetry/tracing/otlp/protobuf-writer.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const LINKED_TRACE_ID = '5b8efff798038103d269b633813fc60c';

/** A tracer provider whose finished spans stay in memory. */
function recordingProvider(resource: Resource = resourceFromAttributes({ 'service.name': 'sluice-test' }), spanLimits?: SpanLimits): { provider: BasicTracerProvider; exporter: InMemorySpanExporter } {
  const exporter = new InMemorySpanExporter();
  return { provider: new BasicTracerProvider({ resource, spanLimits, spanProcessors: [new SimpleSpanProcessor(exporter)] }), exporter };
}

/** The spans `record` finishes with a tracer of one provider. */
function recordSpans(record: (tracer: Tracer) => void, spanLimits?: SpanLimits): ReadableSpan[] {
  const { provider, exporter } = recordingProvider(undefined, spanLimits);
  record(provider.getTracer('sluice.test', '1.2.3'));
  return exporter.getFinishedSpans();
}

/** A sampled span context of another process. */
function remoteContext(spanId: string, traceState?: string): SpanContext {
  return { traceId: TRACE_ID, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true, ...(traceState === undefined ? {} : { traceState: new TraceState(traceState) }) };
}

/**
 * The request the encoder writes for `spans`: each span into the writer of its resource and scope (in the
 * order they first appear), then the groups into one `ExportTraceServiceRequest`.
 */
function encode(spans: readonly ReadableSpan[]): Buffer {
  const groups: { resource: Resource; scope: ReadableSpan['instrumentationScope']; writer: ProtobufWriter }[] = [];
  for (const span of spans) {
    let group = groups.find((g) => g.resource === span.resource && g.scope === span.instrumentationScope);
    if (group === undefined) {
      group = { resource: span.resource, scope: span.instrumentationScope, writer: new ProtobufWriter(16) };
      groups.push(group);
    }
    writeSpan(group.writer, span);
  }
  const encoded: EncodedScopeSpans[] = groups.map((g) => ({ resource: g.resource, scope: g.scope, spans: g.writer.written() }));
  const request = new ProtobufWriter(16);
  writeExportRequest(request, encoded);
  return Buffer.from(request.toBytes());
}

/** The request the OpenTelemetry SDK's own protobuf serializer writes for `spans`. */
function sdkEncode(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
}

function expectSameBytesAsTheSdk(spans: ReadableSpan[]): void {
  expect(spans.length).toBeGreaterThan(0);
  expect(encode(spans)).toEqual(sdkEncode(spans));
}

describe('OTLP span encoding, compared byte for byte with the SDK’s serializer', () => {
  it('encodes a root span', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        tracer.startSpan('root').end();
      }),
    );
  });

  it('encodes attributes of every type', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        tracer
          .startSpan('attributes', {
            attributes: {
              'model.name': 'iris',
              'model.label': 'modèle – 推論 🚀',
              'request.streamed': false,
              'batch.size': 32,
              'queue.delta': -7,
              'queue.min': -(2 ** 40),
              'tokens.total': 2 ** 60,
              'latency.ratio': 0.125,
              'score.negative': -3.5,
              'not.a.number': Number.NaN,
              'model.inputs': ['sepal_length', 'pétale'],
              'model.shape': [1, -4, 2.5],
              'model.flags': [true, false],
              'model.optional': ['present', null],
              'empty.text': '',
              'lone.surrogate': 'a\uD800b',
              'empty.list': [],
            },
          })
          .end();
      }),
    );
  });

  it('encodes string attributes whose lengths need two bytes, and keys that are not ASCII', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        tracer
          .startSpan('long strings', {
            attributes: {
              'url.full': `http://127.0.0.1/${'p'.repeat(120)}`,
              ['k'.repeat(126)]: 'v',
              'clé.modèle': 'iris',
              'at.the.edge': 'x'.repeat(127 - 4 - 'at.the.edge'.length - 2),
            },
          })
          .end();
      }),
    );
  });

  it('encodes events with and without attributes, at given times, and a recorded exception', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        const span = tracer.startSpan('events');
        span.addEvent('queued');
        span.addEvent('batched', { 'batch.size': 4, 'batch.model': 'iris' });
        span.addEvent('at a time', [1_767_225_600, 999_999_999]);
        span.recordException(new Error('the model failed'));
        span.end();
      }),
    );
  });

  it('encodes links with and without attributes and a link’s tracestate', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        const links: Link[] = [
          { context: { traceId: LINKED_TRACE_ID, spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true, traceState: new TraceState('vendor=abc,other=1') } },
          { context: { traceId: LINKED_TRACE_ID, spanId: 'eee19b7ec3c1b174', traceFlags: TraceFlags.NONE }, attributes: { 'link.reason': 'batched with', 'link.index': 1 } },
        ];
        const span = tracer.startSpan('linked', { links });
        span.addLink({ context: { traceId: TRACE_ID, spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED } });
        span.end();
      }),
    );
  });

  it('encodes an ERROR status with its message', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        const span = tracer.startSpan('failed');
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'no such model: irs' });
        span.end();
      }),
    );
  });

  it('encodes an OK status', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        const span = tracer.startSpan('succeeded');
        span.setStatus({ code: SpanStatusCode.OK });
        span.end();
      }),
    );
  });

  it('encodes a remote parent, its tracestate and the remote flag', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        tracer.startSpan('server', { kind: SpanKind.SERVER }, trace.setSpanContext(ROOT_CONTEXT, remoteContext('00f067aa0ba902b7', 'sluice=t61rcWkgMzE'))).end();
      }),
    );
  });

  it('encodes a local parent without the remote flag', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        const parent = tracer.startSpan('parent');
        tracer.startSpan('child', {}, trace.setSpan(ROOT_CONTEXT, parent)).end();
        parent.end();
      }),
    );
  });

  it.each([
    ['INTERNAL', SpanKind.INTERNAL],
    ['SERVER', SpanKind.SERVER],
    ['CLIENT', SpanKind.CLIENT],
    ['PRODUCER', SpanKind.PRODUCER],
    ['CONSUMER', SpanKind.CONSUMER],
  ])('encodes the span kind %s', (_, kind) => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        tracer.startSpan('kind', { kind }).end();
      }),
    );
  });

  it('encodes the counts of dropped attributes, events and links', () => {
    const spans = recordSpans(
      (tracer) => {
        const span = tracer.startSpan('limited', { attributes: { a: 1, b: 2, c: 3 } });
        // Beyond the limit the oldest event and link are dropped: the ones kept carry dropped attributes.
        span.addEvent('dropped');
        span.addEvent('kept', { a: 1, b: 2, c: 3 });
        span.addLink({ context: remoteContext('eee19b7ec3c1b174') });
        span.addLink({ context: remoteContext('00f067aa0ba902b7'), attributes: { a: 1, b: 2, c: 3 } });
        span.end();
      },
      { attributeCountLimit: 2, eventCountLimit: 1, linkCountLimit: 1, attributePerEventCountLimit: 1, attributePerLinkCountLimit: 1 },
    );
    const span = spans[0]!;
    expect([span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount, span.events[0]?.droppedAttributesCount, span.links[0]?.droppedAttributesCount]).toEqual([1, 1, 1, 2, 2]);
    expectSameBytesAsTheSdk(spans);
  });

  it('encodes a span longer than a two-byte length', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        tracer.startSpan('large', { attributes: { 'prompt.text': 'x'.repeat(20_000), 'prompt.words': Array.from({ length: 200 }, (_, i) => `word-${i}`) } }).end();
      }),
    );
  });

  it('encodes several spans of one scope into one request, in the order they ended', () => {
    expectSameBytesAsTheSdk(
      recordSpans((tracer) => {
        const server = tracer.startSpan('server', { kind: SpanKind.SERVER }, trace.setSpanContext(ROOT_CONTEXT, remoteContext('00f067aa0ba902b7')));
        const parent = trace.setSpan(ROOT_CONTEXT, server);
        tracer.startSpan('preprocess', {}, parent).end();
        const inference = tracer.startSpan('inference', { attributes: { 'model.name': 'iris' } }, parent);
        inference.addEvent('queued');
        inference.end();
        server.setStatus({ code: SpanStatusCode.ERROR, message: 'postprocess failed' });
        server.end();
      }),
    );
  });

  it('encodes a scope’s version and schema URL and a resource’s schema URL', () => {
    const { provider, exporter } = recordingProvider(resourceFromAttributes({ 'service.name': 'sluice-test' }, { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' }));
    provider.getTracer('sluice.versioned', '2.0.0', { schemaUrl: 'https://opentelemetry.io/schemas/1.29.0' }).startSpan('versioned').end();
    provider.getTracer('sluice.bare').startSpan('bare').end();
    expectSameBytesAsTheSdk(exporter.getFinishedSpans());
  });

  it('groups spans of two scopes under one resource, in the order the scopes first appear', () => {
    const { provider, exporter } = recordingProvider();
    const http = provider.getTracer('sluice.http');
    const batching = provider.getTracer('sluice.batching', '1.0.0');
    batching.startSpan('batch.execute').end();
    http.startSpan('POST /predictions/:model').end();
    batching.startSpan('batch.execute').end();
    const spans = exporter.getFinishedSpans();
    expect(new Set(spans.map((s) => s.instrumentationScope)).size).toBe(2);
    expectSameBytesAsTheSdk(spans);
  });

  it('groups spans of two resources apart, in the order the resources first appear', () => {
    const first = recordingProvider(resourceFromAttributes({ 'service.name': 'sluice-a', 'service.instance.id': 'a-1' }));
    const second = recordingProvider(resourceFromAttributes({ 'service.name': 'sluice-b' }));
    const a = first.provider.getTracer('sluice.test');
    const b = second.provider.getTracer('sluice.test');
    const ended: ReadableSpan[] = [];
    for (const [tracer, exporter] of [
      [b, second.exporter],
      [a, first.exporter],
      [b, second.exporter],
      [a, first.exporter],
    ] as const) {
      tracer.startSpan('work').end();
      ended.push(exporter.getFinishedSpans().at(-1)!);
    }
    expect(new Set(ended.map((s) => s.resource)).size).toBe(2);
    expectSameBytesAsTheSdk(ended);
  });
});
