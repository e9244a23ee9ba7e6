import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, TraceFlags, context, trace, type Attributes, type Context, type Span, type SpanContext, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TraceState, suppressTracing } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  SamplingDecision,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type ReadableSpan,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';
import { CHAINED_ROOT_CONTEXT } from '../../../../../src/telemetry/tracing/recording/chained-context.js';
import { RecordedSpan } from '../../../../../src/telemetry/tracing/recording/recorded-span.js';
import { RecordingTracer } from '../../../../../src/telemetry/tracing/recording/recording-tracer.js';
import { RecordingSpanProcessor } from '../../../../support/telemetry/recording-span-processor.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const INVALID_TRACE_ID = '0'.repeat(32);
const RESOURCE = resourceFromAttributes({ 'service.name': 'sluice-test' });
const SCOPE = { name: 'sluice.test', version: '1.2.3' };

/** A sampler that always records without sampling, adding attributes and a tracestate (no SDK sampler decides RECORD). */
class RecordOnlySampler implements Sampler {
  shouldSample(): SamplingResult {
    return { decision: SamplingDecision.RECORD, attributes: { 'sampler.rule': 'record-only' }, traceState: new TraceState('sampler=chosen') };
  }

  toString(): string {
    return 'RecordOnlySampler';
  }
}

/** `span` as the recorded span it must be. */
function recorded(span: Span): RecordedSpan {
  if (!(span instanceof RecordedSpan)) throw new Error(`span ${span.spanContext().spanId} is not recorded`);
  return span;
}

function tracerWith(sampler: Sampler = new AlwaysOnSampler()): { tracer: RecordingTracer; exporter: InMemorySpanExporter; processor: RecordingSpanProcessor } {
  const exporter = new InMemorySpanExporter();
  const processor = new RecordingSpanProcessor();
  const tracer = new RecordingTracer({ resource: RESOURCE, scope: SCOPE, sampler, processors: [new SimpleSpanProcessor(exporter), processor] });
  return { tracer, exporter, processor };
}

/** A context whose parent is a span of another process, as a `traceparent` header gives it. */
function remoteParent(traceFlags: number = TraceFlags.SAMPLED, traceState?: string, traceId = TRACE_ID): Context {
  const parent: SpanContext = { traceId, spanId: PARENT_SPAN_ID, traceFlags, isRemote: true, ...(traceState === undefined ? {} : { traceState: new TraceState(traceState) }) };
  return trace.setSpanContext(CHAINED_ROOT_CONTEXT, parent);
}

describe('RecordingTracer sampling', () => {
  it('records and samples the spans AlwaysOnSampler keeps, for the processors', () => {
    const { tracer, exporter } = tracerWith(new AlwaysOnSampler());
    const span = tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT);
    span.end();
    expect([span.isRecording(), span.spanContext().traceFlags, exporter.getFinishedSpans()]).toEqual([false, TraceFlags.SAMPLED, [span]]);
  });

  it('gives the spans AlwaysOffSampler drops no recording', () => {
    const { tracer } = tracerWith(new AlwaysOffSampler());
    const span = tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT);
    expect([span.isRecording(), span instanceof RecordedSpan]).toEqual([false, false]);
  });

  it('tells no processor of a span AlwaysOffSampler drops', () => {
    const { tracer, processor } = tracerWith(new AlwaysOffSampler());
    tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT).end();
    expect([processor.started, processor.ended]).toEqual([[], []]);
  });

  it('still gives a dropped span a context with a new trace id, unsampled', () => {
    const { tracer } = tracerWith(new AlwaysOffSampler());
    const spanContext = tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT).spanContext();
    expect([trace.isSpanContextValid(spanContext), spanContext.traceFlags]).toEqual([true, TraceFlags.NONE]);
  });

  it('continues the parent’s trace id in a dropped span', () => {
    const { tracer } = tracerWith(new AlwaysOffSampler());
    expect(tracer.startSpan('stage', {}, remoteParent()).spanContext().traceId).toBe(TRACE_ID);
  });

  it('records a span the sampler says to record, without the sampled flag', () => {
    const { tracer, processor } = tracerWith(new RecordOnlySampler());
    const span = tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT);
    expect([span.isRecording(), span.spanContext().traceFlags, processor.started.length]).toEqual([true, TraceFlags.NONE, 1]);
  });

  it('adds the sampler’s attributes to the span’s own', () => {
    const { tracer } = tracerWith(new RecordOnlySampler());
    const span = recorded(tracer.startSpan('stage', { attributes: { 'model.name': 'iris' } }, CHAINED_ROOT_CONTEXT));
    expect(span.attributes).toEqual({ 'model.name': 'iris', 'sampler.rule': 'record-only' });
  });

  it('takes the sampler’s tracestate over the parent’s', () => {
    const { tracer } = tracerWith(new RecordOnlySampler());
    expect(tracer.startSpan('stage', {}, remoteParent(TraceFlags.SAMPLED, 'caller=1')).spanContext().traceState?.serialize()).toBe('sampler=chosen');
  });

  it('samples what TraceIdRatioBasedSampler(1) keeps', () => {
    const { tracer } = tracerWith(new TraceIdRatioBasedSampler(1));
    expect(tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT).spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
  });

  it('drops what TraceIdRatioBasedSampler(0) drops', () => {
    const { tracer } = tracerWith(new TraceIdRatioBasedSampler(0));
    expect(tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT).isRecording()).toBe(false);
  });

  it('lets TraceIdRatioBasedSampler decide on the trace id it continues', () => {
    const sampler = new TraceIdRatioBasedSampler(0.5);
    const { tracer } = tracerWith(sampler);
    const traceIds = ['00000000000000000000000000000001', 'ffffffffffffffffffffffffffffffff', TRACE_ID, '5b8efff798038103d269b633813fc60c'];
    const expected = traceIds.map((id) => sampler.shouldSample(CHAINED_ROOT_CONTEXT, id).decision === SamplingDecision.RECORD_AND_SAMPLED);
    expect(traceIds.map((id) => tracer.startSpan('stage', {}, remoteParent(TraceFlags.NONE, undefined, id)).isRecording())).toEqual(expected);
    expect(new Set(expected).size).toBe(2);
  });

  it('samples the child of a sampled remote parent with ParentBasedSampler', () => {
    const { tracer } = tracerWith(new ParentBasedSampler({ root: new AlwaysOffSampler() }));
    expect(tracer.startSpan('stage', {}, remoteParent(TraceFlags.SAMPLED)).spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
  });

  it('drops the child of an unsampled remote parent with ParentBasedSampler', () => {
    const { tracer } = tracerWith(new ParentBasedSampler({ root: new AlwaysOnSampler() }));
    expect(tracer.startSpan('stage', {}, remoteParent(TraceFlags.NONE)).isRecording()).toBe(false);
  });

  it('lets ParentBasedSampler’s root sampler decide for a span without a parent', () => {
    const { tracer } = tracerWith(new ParentBasedSampler({ root: new AlwaysOffSampler() }));
    expect(tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT).isRecording()).toBe(false);
  });

  it('lets ParentBasedSampler’s root sampler decide for a root span, whatever the context’s parent', () => {
    const { tracer } = tracerWith(new ParentBasedSampler({ root: new AlwaysOnSampler() }));
    expect(tracer.startSpan('stage', { root: true }, remoteParent(TraceFlags.NONE)).isRecording()).toBe(true);
  });
});

/** A sampler that makes one decision and counts how often it was asked. */
class CountingSampler implements Sampler {
  calls = 0;

  constructor(private readonly decision: SamplingDecision) {}

  shouldSample(): SamplingResult {
    this.calls++;
    return { decision: this.decision };
  }

  toString(): string {
    return 'CountingSampler';
  }
}

describe('RecordingTracer following a parent it recorded', () => {
  function followingTracer(sampler: Sampler): RecordingTracer {
    return new RecordingTracer({ resource: RESOURCE, scope: SCOPE, sampler, followsParent: true, processors: [new RecordingSpanProcessor()] });
  }

  const parentDecisions: ReadonlyArray<readonly [string, SamplingDecision, boolean, number]> = [
    ['samples the child of a sampled span', SamplingDecision.RECORD_AND_SAMPLED, true, TraceFlags.SAMPLED],
    ['drops the child of an unsampled span', SamplingDecision.NOT_RECORD, false, TraceFlags.NONE],
  ];
  it.each(parentDecisions)('%s it recorded without asking the sampler again', (_, decision, recording, traceFlags) => {
    const sampler = new CountingSampler(decision);
    const tracer = followingTracer(sampler);
    const request = tracer.startSpan('request', {}, CHAINED_ROOT_CONTEXT);
    const stage = tracer.startSpan('stage', {}, trace.setSpan(CHAINED_ROOT_CONTEXT, request));
    expect([stage.isRecording(), stage.spanContext().traceFlags, sampler.calls]).toEqual([recording, traceFlags, 1]);
  });

  it('still asks the sampler about a remote parent', () => {
    const sampler = new CountingSampler(SamplingDecision.NOT_RECORD);
    expect(followingTracer(sampler).startSpan('request', {}, remoteParent(TraceFlags.SAMPLED)).isRecording()).toBe(false);
    expect(sampler.calls).toBe(1);
  });
});

describe('RecordingTracer parents', () => {
  it('continues a valid parent’s trace', () => {
    const { tracer } = tracerWith();
    expect(tracer.startSpan('stage', {}, remoteParent()).spanContext().traceId).toBe(TRACE_ID);
  });

  it('makes a valid parent’s context the span’s parent', () => {
    const { tracer } = tracerWith();
    const parent = trace.getSpanContext(remoteParent());
    expect((recorded(tracer.startSpan('stage', {}, remoteParent()))).parentSpanContext).toEqual(parent);
  });

  it('continues a parent’s tracestate', () => {
    const { tracer } = tracerWith();
    expect(tracer.startSpan('stage', {}, remoteParent(TraceFlags.SAMPLED, 'vendor=abc')).spanContext().traceState?.serialize()).toBe('vendor=abc');
  });

  it('continues the trace of a span it recorded', () => {
    const { tracer } = tracerWith();
    const parent = tracer.startSpan('request', {}, CHAINED_ROOT_CONTEXT);
    const child = recorded(tracer.startSpan('stage', {}, trace.setSpan(CHAINED_ROOT_CONTEXT, parent)));
    expect([child.spanContext().traceId, child.parentSpanContext]).toEqual([parent.spanContext().traceId, parent.spanContext()]);
  });

  it('starts a new trace for a root span, ignoring the context’s parent', () => {
    const { tracer } = tracerWith();
    const span = recorded(tracer.startSpan('stage', { root: true }, remoteParent()));
    expect([span.spanContext().traceId === TRACE_ID, span.parentSpanContext]).toEqual([false, undefined]);
  });

  it('ignores an invalid parent', () => {
    const { tracer } = tracerWith();
    const span = recorded(tracer.startSpan('stage', {}, remoteParent(TraceFlags.SAMPLED, 'vendor=abc', INVALID_TRACE_ID)));
    expect([trace.isSpanContextValid(span.spanContext()), span.parentSpanContext, span.spanContext().traceState]).toEqual([true, undefined, undefined]);
  });

  it('starts a span without a parent in a new trace', () => {
    const { tracer } = tracerWith();
    const span = recorded(tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT));
    expect([trace.isSpanContextValid(span.spanContext()), span.parentSpanContext]).toEqual([true, undefined]);
  });

  it('gives spans distinct 16-digit span ids and distinct trace ids', () => {
    const { tracer } = tracerWith();
    const contexts = Array.from({ length: 64 }, () => tracer.startSpan('stage', {}, CHAINED_ROOT_CONTEXT).spanContext());
    expect(contexts.every((c) => /^[0-9a-f]{16}$/.test(c.spanId))).toBe(true);
    expect([new Set(contexts.map((c) => c.spanId)).size, new Set(contexts.map((c) => c.traceId)).size]).toEqual([64, 64]);
  });
});

describe('RecordingTracer spans', () => {
  it('starts INTERNAL spans unless told a kind', () => {
    const { tracer } = tracerWith();
    const kinds = [undefined, SpanKind.SERVER, SpanKind.CLIENT].map((kind) => (recorded(tracer.startSpan('stage', kind === undefined ? {} : { kind }, CHAINED_ROOT_CONTEXT))).kind);
    expect(kinds).toEqual([SpanKind.INTERNAL, SpanKind.SERVER, SpanKind.CLIENT]);
  });

  it('starts a span with its name, attributes, links and start time', () => {
    const { tracer } = tracerWith();
    const link = { context: trace.getSpanContext(remoteParent())!, attributes: { reason: 'batch' } };
    const span = recorded(tracer.startSpan('stage', { attributes: { 'model.name': 'iris' }, links: [link], startTime: new Date(1_900_000_000_000) }, CHAINED_ROOT_CONTEXT));
    expect([span.name, span.attributes, span.links, span.startMillis, span.resource, span.instrumentationScope]).toEqual(['stage', { 'model.name': 'iris' }, [link], 1_900_000_000_000, RESOURCE, SCOPE]);
  });

  it('tells its processors of a root span as it starts, with the parent context without its span', () => {
    const { tracer, processor } = tracerWith();
    tracer.startSpan('stage', { root: true }, remoteParent());
    expect(processor.started.map((s) => trace.getSpan(s.parentContext))).toEqual([undefined]);
  });

  it('tells its processors of a span as it starts, with the parent context', () => {
    const { tracer, processor } = tracerWith();
    const parentContext = remoteParent();
    const span = tracer.startSpan('stage', {}, parentContext);
    expect(processor.started).toEqual([{ span, parentContext }]);
  });

  it('gives a span in a context with tracing suppressed no recording', () => {
    const { tracer, processor } = tracerWith();
    const span = tracer.startSpan('stage', {}, suppressTracing(remoteParent()));
    expect([span.isRecording(), trace.isSpanContextValid(span.spanContext()), processor.started]).toEqual([false, false, []]);
  });

  it('flushes its processors', async () => {
    const { tracer, processor } = tracerWith();
    await tracer.forceFlush();
    expect([processor.flushes, processor.shutdowns]).toEqual([1, 0]);
  });

  it('shuts its processors down', async () => {
    const { tracer, processor } = tracerWith();
    await tracer.shutdown();
    expect(processor.shutdowns).toBe(1);
  });
});

describe('RecordingTracer with the active context', () => {
  beforeEach(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterEach(() => {
    context.disable();
  });

  it('parents a span on the active context when given none', () => {
    const tracer: Tracer = tracerWith().tracer;
    const span = context.with(remoteParent(), () => recorded(tracer.startSpan('stage')));
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
  });

  it('runs startActiveSpan(name, fn) with the span active, returning what fn returns', () => {
    const tracer: Tracer = tracerWith().tracer;
    const [span, active] = tracer.startActiveSpan('stage', (s: Span): [Span, Span | undefined] => [s, trace.getActiveSpan()]);
    expect(active).toBe(span);
  });

  it('parents startActiveSpan(name, fn)’s span on the active context', () => {
    const tracer: Tracer = tracerWith().tracer;
    const span = recorded(context.with(remoteParent(), () => tracer.startActiveSpan('stage', (s: Span) => s)));
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
  });

  it('starts startActiveSpan(name, options, fn)’s span with the options', () => {
    const tracer: Tracer = tracerWith().tracer;
    const span = recorded(tracer.startActiveSpan('stage', { kind: SpanKind.CONSUMER }, (s: Span) => s));
    expect(span.kind).toBe(SpanKind.CONSUMER);
  });

  it('parents startActiveSpan(name, options, context, fn)’s span on the given context, not the active one', () => {
    const tracer: Tracer = tracerWith().tracer;
    const span = recorded(tracer.startActiveSpan('stage', {}, remoteParent(), (s: Span) => s));
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
  });

  it('makes startActiveSpan’s span active on top of the given context', () => {
    const tracer: Tracer = tracerWith().tracer;
    const key = Symbol('sluice.test');
    const seen = tracer.startActiveSpan('stage', {}, remoteParent().setValue(key, 'kept'), () => context.active().getValue(key));
    expect(seen).toBe('kept');
  });
});

/**
 * What two tracers are compared on: every field of a finished span but its ids and times (its own trace
 * id only as whether it continues the caller's, its parent's id as the parent's name).
 */
function comparable(span: ReadableSpan, _: number, spans: readonly ReadableSpan[]): unknown {
  const parent = span.parentSpanContext;
  return {
    name: span.name,
    kind: span.kind,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes, droppedAttributesCount: e.droppedAttributesCount ?? 0 })),
    links: span.links.map((l) => ({ context: l.context, attributes: l.attributes ?? {}, droppedAttributesCount: l.droppedAttributesCount ?? 0 })),
    status: span.status,
    parent: parent && { traceId: parent.traceId, span: parent.spanId === PARENT_SPAN_ID ? 'caller' : spans.find((s) => s.spanContext().spanId === parent.spanId)?.name },
    continuesTrace: span.spanContext().traceId === TRACE_ID,
    traceFlags: span.spanContext().traceFlags,
    traceState: span.spanContext().traceState?.serialize(),
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
    resource: span.resource.attributes,
    scope: [span.instrumentationScope.name, span.instrumentationScope.version],
    ended: span.ended,
  };
}

const ALL_TYPES: Attributes = { s: 'text', i: 42, neg: -7, f: 0.25, b: true, ss: ['a', 'b'], is: [1, 2], fs: [0.5], bs: [false, true] };
const ERROR = new RangeError('too many inputs');

/** The same work on any tracer: spans of every kind, attributes of every type, events, an exception, links, statuses. */
function work(tracer: Tracer): void {
  const caller = remoteParent(TraceFlags.SAMPLED, 'vendor=abc');
  const link = { context: trace.getSpanContext(caller)!, attributes: { reason: 'batch' } };
  const server = tracer.startSpan('POST /predictions/:model', { kind: SpanKind.SERVER, attributes: ALL_TYPES, links: [link] }, caller);
  server.setAttribute('late', 'yes').setAttributes({ more: 1 });
  server.addEvent('queued', { depth: 3 });
  server.addEvent('dequeued');
  server.recordException(ERROR);
  server.recordException('plain message');
  server.addLink({ context: { ...link.context, spanId: '1111111111111111' } });
  server.setStatus({ code: SpanStatusCode.ERROR, message: 'failed' });
  const inside = trace.setSpan(caller, server);
  for (const kind of [SpanKind.INTERNAL, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER]) {
    const child = tracer.startSpan(`child ${kind}`, { kind }, inside);
    child.updateName(`renamed ${kind}`);
    child.setStatus({ code: SpanStatusCode.OK });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'ignored' });
    child.end();
  }
  const root = tracer.startSpan('background', { root: true }, inside);
  for (let i = 0; i < 130; i++) root.setAttribute(`a${i}`, i);
  root.end();
  server.end();
  server.setAttribute('after end', 1);
}

/** The same many events and links on any tracer, past the limits. */
function overflow(tracer: Tracer): void {
  const span = tracer.startSpan('overflow', {}, CHAINED_ROOT_CONTEXT);
  for (let i = 0; i < 131; i++) span.addEvent('same');
  for (let i = 0; i < 133; i++) span.addLink({ context: trace.getSpanContext(remoteParent())! });
  span.end();
}

function sdkSpans(run: (tracer: Tracer) => void): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ resource: RESOURCE, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  run(provider.getTracer(SCOPE.name, SCOPE.version));
  return exporter.getFinishedSpans();
}

function recordedSpans(run: (tracer: Tracer) => void): ReadableSpan[] {
  const { tracer, exporter } = tracerWith();
  run(tracer);
  return exporter.getFinishedSpans();
}

describe('RecordingTracer and the SDK’s tracer', () => {
  it('record the same spans for the same work', () => {
    const sdk = sdkSpans(work).map(comparable);
    expect(sdk).toHaveLength(6);
    expect(recordedSpans(work).map(comparable)).toEqual(sdk);
  });

  it('count the same events and links as dropped past the limits', () => {
    expect(recordedSpans(overflow).map(comparable)).toEqual(sdkSpans(overflow).map(comparable));
  });
});
