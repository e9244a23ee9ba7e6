import { describe, expect, it } from '@jest/globals';
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime, type Link, type SpanStatus } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_EXCEPTION_MESSAGE, ATTR_EXCEPTION_STACKTRACE, ATTR_EXCEPTION_TYPE } from '@opentelemetry/semantic-conventions';
import { epochMillisOf, hrTimeOf, nowEpochMillis, RecordedSpan, SPAN_LIMIT, type RecordedSpanStart } from '../../../../../src/telemetry/tracing/recording/recorded-span.js';
import { RecordedSpanContext } from '../../../../../src/telemetry/tracing/recording/recorded-span-context.js';
import { TraceId } from '../../../../../src/telemetry/tracing/recording/trace-id.js';
import { RecordingSpanProcessor } from '../../../../support/telemetry/recording-span-processor.js';

/** The trace id 4bf92f3577b34da6a3ce929d0e0e4736. */
const TRACE = new TraceId(0x4bf92f35, 0x77b34da6, 0xa3ce929d, 0x0e0e4736);
/** 2023-11-14T22:13:20.250Z */
const START_MILLIS = 1_700_000_000_250;
const LINKED = { traceId: '5b8efff798038103d269b633813fc60c', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

function startSpan(overrides: Partial<RecordedSpanStart> = {}): RecordedSpan {
  return new RecordedSpan({
    name: 'stage',
    kind: SpanKind.INTERNAL,
    context: new RecordedSpanContext(TRACE, 0x11111111, 0x22222222, TraceFlags.SAMPLED, undefined),
    parent: undefined,
    startMillis: START_MILLIS,
    attributes: undefined,
    links: undefined,
    resource: resourceFromAttributes({ 'service.name': 'sluice-test' }),
    scope: { name: 'sluice.test' },
    processors: [],
    ...overrides,
  });
}

function endedSpan(): RecordedSpan {
  const span = startSpan();
  span.end(START_MILLIS + 10);
  return span;
}

describe('epochMillisOf', () => {
  it('reads a Date as its epoch milliseconds', () => {
    expect(epochMillisOf(new Date(START_MILLIS))).toBe(START_MILLIS);
  });

  it('reads an epoch number as it is, even one from before the process started', () => {
    expect(START_MILLIS).toBeLessThan(performance.timeOrigin);
    expect(epochMillisOf(START_MILLIS + 0.5)).toBe(START_MILLIS + 0.5);
  });

  it('reads a number not past the monotonic clock as milliseconds since the time origin', () => {
    const performanceTime = performance.now();
    expect(epochMillisOf(performanceTime)).toBe(performance.timeOrigin + performanceTime);
  });

  it('reads [seconds, nanoseconds] as epoch milliseconds', () => {
    expect(epochMillisOf([1_700_000_000, 250_500_000])).toBe(1_700_000_000_250.5);
  });

  it('reads no time as now', () => {
    const before = nowEpochMillis();
    const at = epochMillisOf(undefined);
    expect([before <= at, at <= nowEpochMillis()]).toEqual([true, true]);
  });
});

describe('nowEpochMillis', () => {
  it('counts from the epoch, not from the time origin', () => {
    expect(nowEpochMillis()).toBeGreaterThanOrEqual(performance.timeOrigin);
  });
});

describe('hrTimeOf', () => {
  it('splits epoch milliseconds into seconds and nanoseconds', () => {
    expect(hrTimeOf(1_700_000_000_250.5)).toEqual([1_700_000_000, 250_500_000]);
  });

  it('gives whole seconds zero nanoseconds', () => {
    expect(hrTimeOf(1_700_000_000_000)).toEqual([1_700_000_000, 0]);
  });

  it.each<[string, HrTime]>([
    ['no nanoseconds', [1_700_000_000, 0]],
    ['one nanosecond', [1_700_000_000, 1]],
    ['some microseconds', [1_700_000_000, 123_456_789]],
    ['the last nanosecond of a second', [1_700_000_000, 999_999_999]],
    ['a time in 2100', [4_102_444_800, 500_000_001]],
  ])('gives back [seconds, nanoseconds] read by epochMillisOf within a microsecond (%s)', (_, time) => {
    const [seconds, nanos] = hrTimeOf(epochMillisOf(time));
    expect(Math.abs((seconds - time[0]) * 1e9 + (nanos - time[1]))).toBeLessThanOrEqual(1000);
  });

  it('keeps nanoseconds below a second', () => {
    const nanos = [0.0000001, 999.9999999, 999.9999996, 1.5].map((ms) => hrTimeOf(1_700_000_000_000 + ms)[1]);
    expect(nanos.every((n) => Number.isInteger(n) && n >= 0 && n < 1e9)).toBe(true);
  });
});

describe('RecordedSpan times', () => {
  it('gives its start as [seconds, nanoseconds]', () => {
    expect(startSpan().startTime).toEqual([1_700_000_000, 250_000_000]);
  });

  it('has no end time and no duration while it runs', () => {
    const span = startSpan();
    expect([span.endTime, span.duration, span.ended]).toEqual([[0, 0], [-1, -1], false]);
  });

  it('gives its end and duration as [seconds, nanoseconds] once ended', () => {
    const span = startSpan();
    span.end(START_MILLIS + 1500.25);
    expect([span.endTime, span.duration, span.ended]).toEqual([[1_700_000_001, 750_250_000], [1, 500_250_000], true]);
  });

  it('keeps its times as epoch milliseconds', () => {
    const span = startSpan();
    span.end(new Date(START_MILLIS + 7));
    expect([span.startMillis, span.endMillis]).toEqual([START_MILLIS, START_MILLIS + 7]);
  });

  it('ends at its start when told to end before it', () => {
    const span = startSpan();
    span.end(START_MILLIS - 1000);
    expect([span.endTime, span.duration]).toEqual([span.startTime, [0, 0]]);
  });
});

describe('RecordedSpan attributes', () => {
  it('keeps attributes of every type', () => {
    const span = startSpan();
    span.setAttribute('s', 'text').setAttribute('i', 42).setAttribute('f', 0.5).setAttribute('b', false);
    span.setAttribute('ss', ['a', 'b']).setAttribute('ns', [1, 2]).setAttribute('bs', [true]);
    expect(span.attributes).toEqual({ s: 'text', i: 42, f: 0.5, b: false, ss: ['a', 'b'], ns: [1, 2], bs: [true] });
  });

  it('keeps the attributes it started with', () => {
    expect(startSpan({ attributes: { 'model.name': 'iris' } }).attributes).toEqual({ 'model.name': 'iris' });
  });

  it('keeps a copy of the attributes it started with, not the caller’s object', () => {
    const given: Record<string, string> = { 'model.name': 'iris' };
    const span = startSpan({ attributes: given });
    given['model.name'] = 'changed';
    span.setAttribute('batch.size', 4);
    expect([span.attributes, given]).toEqual([{ 'model.name': 'iris', 'batch.size': 4 }, { 'model.name': 'changed' }]);
  });

  it('keeps the valid ones of starting attributes that hold invalid values or an empty key', () => {
    const attributes = { a: 1, b: undefined, '': 'x', c: ['x', 1] as unknown as string[], d: 'kept' };
    expect(startSpan({ attributes }).attributes).toEqual({ a: 1, d: 'kept' });
  });

  it('counts the attributes it started with toward the limit', () => {
    const attributes = Object.fromEntries(Array.from({ length: SPAN_LIMIT }, (_, i) => [`a${i}`, i]));
    const span = startSpan({ attributes }).setAttribute('one.more', 1);
    expect([Object.keys(span.attributes).length, span.droppedAttributesCount]).toEqual([SPAN_LIMIT, 1]);
  });

  it(`keeps ${SPAN_LIMIT} of more starting attributes and counts the others as dropped`, () => {
    const attributes = Object.fromEntries(Array.from({ length: SPAN_LIMIT + 2 }, (_, i) => [`a${i}`, i]));
    const span = startSpan({ attributes });
    expect([Object.keys(span.attributes).length, span.droppedAttributesCount]).toEqual([SPAN_LIMIT, 2]);
  });

  it('sets several attributes at once', () => {
    expect(startSpan().setAttributes({ a: 1, b: 'two' }).attributes).toEqual({ a: 1, b: 'two' });
  });

  it('replaces the value of a key set again', () => {
    expect(startSpan().setAttribute('a', 1).setAttribute('a', 2).attributes).toEqual({ a: 2 });
  });

  it('ignores undefined values', () => {
    expect(startSpan().setAttribute('a', undefined).setAttributes({ b: undefined }).attributes).toEqual({});
  });

  it('ignores an empty key', () => {
    expect(startSpan().setAttribute('', 1).attributes).toEqual({});
  });

  it('ignores an array mixing types', () => {
    expect(startSpan().setAttribute('a', ['x', 1] as unknown as string[]).attributes).toEqual({});
  });

  it(`keeps ${SPAN_LIMIT} attributes and counts the others as dropped`, () => {
    const span = startSpan();
    for (let i = 0; i < SPAN_LIMIT + 3; i++) span.setAttribute(`a${i}`, i);
    expect([Object.keys(span.attributes).length, span.droppedAttributesCount]).toEqual([SPAN_LIMIT, 3]);
  });

  it('still updates a kept attribute once the limit is reached', () => {
    const span = startSpan();
    for (let i = 0; i < SPAN_LIMIT + 1; i++) span.setAttribute(`a${i}`, i);
    span.setAttribute('a0', 'updated');
    expect([span.attributes['a0'], span.droppedAttributesCount]).toEqual(['updated', 1]);
  });
});

describe('RecordedSpan events', () => {
  it('keeps an event’s name, attributes and time', () => {
    const span = startSpan().addEvent('queued', { depth: 3 }, START_MILLIS + 2);
    expect(span.events).toEqual([{ name: 'queued', attributes: { depth: 3 }, time: [1_700_000_000, 252_000_000], droppedAttributesCount: 0 }]);
  });

  it('gives an event without attributes empty ones', () => {
    expect(startSpan().addEvent('queued', undefined, START_MILLIS).events[0]?.attributes).toEqual({});
  });

  it.each<[string, Date | number | HrTime]>([
    ['a Date', new Date(START_MILLIS + 3)],
    ['epoch milliseconds', START_MILLIS + 3],
    ['[seconds, nanoseconds]', [1_700_000_000, 253_000_000]],
  ])('takes %s in place of attributes as the event’s time', (_, time) => {
    const event = startSpan().addEvent('queued', time).events[0];
    expect([event?.time, event?.attributes]).toEqual([[1_700_000_000, 253_000_000], {}]);
  });

  it('times an event without a time now', () => {
    const before = nowEpochMillis();
    const time = startSpan().addEvent('queued').events[0]?.time ?? [0, 0];
    expect(epochMillisOf(time)).toBeGreaterThanOrEqual(Math.floor(before));
  });

  it(`keeps ${SPAN_LIMIT} events and counts the others as dropped`, () => {
    const span = startSpan();
    for (let i = 0; i < SPAN_LIMIT + 2; i++) span.addEvent(`e${i}`);
    expect([span.events.length, span.droppedEventsCount]).toEqual([SPAN_LIMIT, 2]);
  });

  it('drops the oldest events past the limit, keeping the latest', () => {
    const span = startSpan();
    for (let i = 0; i < SPAN_LIMIT + 2; i++) span.addEvent(`e${i}`);
    expect([span.events[0]?.name, span.events.at(-1)?.name]).toEqual(['e2', `e${SPAN_LIMIT + 1}`]);
  });

  it('drops event attributes that are not attribute values', () => {
    const span = startSpan();
    span.addEvent('e', { kept: 1, nested: { not: 'allowed' } as unknown as string });
    expect(span.events[0]?.attributes).toEqual({ kept: 1 });
  });
});

describe('RecordedSpan links', () => {
  it('keeps a link', () => {
    const link: Link = { context: LINKED, attributes: { reason: 'batch' } };
    expect(startSpan().addLink(link).links).toEqual([link]);
  });

  it('keeps several links added at once, in order', () => {
    const links: Link[] = [{ context: LINKED }, { context: { ...LINKED, spanId: '1111111111111111' } }];
    expect(startSpan().addLinks(links).links).toEqual(links);
  });

  it('keeps the links it started with', () => {
    expect(startSpan({ links: [{ context: LINKED }] }).links).toEqual([{ context: LINKED }]);
  });

  it(`keeps ${SPAN_LIMIT} links and counts the others as dropped`, () => {
    const span = startSpan();
    for (let i = 0; i < SPAN_LIMIT + 4; i++) span.addLink({ context: LINKED });
    expect([span.links.length, span.droppedLinksCount]).toEqual([SPAN_LIMIT, 4]);
  });
});

describe('RecordedSpan status', () => {
  it('starts UNSET', () => {
    expect(startSpan().status).toEqual({ code: SpanStatusCode.UNSET });
  });

  it('keeps an ERROR status with its message', () => {
    expect(startSpan().setStatus({ code: SpanStatusCode.ERROR, message: 'model failed' }).status).toEqual({ code: SpanStatusCode.ERROR, message: 'model failed' });
  });

  it('keeps an OK status without a message', () => {
    expect(startSpan().setStatus({ code: SpanStatusCode.OK, message: 'fine' }).status).toEqual({ code: SpanStatusCode.OK });
  });

  it('drops a message that is not a string', () => {
    const status = { code: SpanStatusCode.ERROR, message: 42 } as unknown as SpanStatus;
    expect(startSpan().setStatus(status).status).toEqual({ code: SpanStatusCode.ERROR });
  });

  it('keeps OK once set', () => {
    expect(startSpan().setStatus({ code: SpanStatusCode.OK }).setStatus({ code: SpanStatusCode.ERROR, message: 'late' }).status).toEqual({ code: SpanStatusCode.OK });
  });

  it('is not changed by UNSET', () => {
    const span = startSpan().setStatus({ code: SpanStatusCode.ERROR, message: 'model failed' }).setStatus({ code: SpanStatusCode.UNSET });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'model failed' });
  });

  it('turns from ERROR to OK', () => {
    expect(startSpan().setStatus({ code: SpanStatusCode.ERROR }).setStatus({ code: SpanStatusCode.OK }).status).toEqual({ code: SpanStatusCode.OK });
  });
});

describe('RecordedSpan.recordException', () => {
  it('records nothing for an empty message', () => {
    const span = startSpan();
    span.recordException('');
    expect(span.events).toEqual([]);
  });

  it('records an Error as an exception event with its type, message and stack', () => {
    const error = new TypeError('bad input');
    const span = startSpan();
    span.recordException(error, START_MILLIS + 1);
    expect(span.events).toEqual([
      {
        name: 'exception',
        attributes: { [ATTR_EXCEPTION_TYPE]: 'TypeError', [ATTR_EXCEPTION_MESSAGE]: 'bad input', [ATTR_EXCEPTION_STACKTRACE]: error.stack },
        time: [1_700_000_000, 251_000_000],
        droppedAttributesCount: 0,
      },
    ]);
  });

  it('takes an exception’s code as its type', () => {
    const span = startSpan();
    span.recordException({ code: 'ECONNRESET', name: 'Error', message: 'reset' });
    expect(span.events[0]?.attributes?.[ATTR_EXCEPTION_TYPE]).toBe('ECONNRESET');
  });

  it('records a string as the exception’s message', () => {
    const span = startSpan();
    span.recordException('out of memory');
    expect(span.events[0]?.attributes).toEqual({ [ATTR_EXCEPTION_MESSAGE]: 'out of memory' });
  });

  it('records nothing for an exception with neither type nor message', () => {
    const span = startSpan();
    span.recordException({ name: '', stack: 'at nowhere' });
    expect(span.events).toEqual([]);
  });
});

describe('RecordedSpan lifecycle', () => {
  it('gives the context, parent, kind, resource and scope it was started with', () => {
    const context = new RecordedSpanContext(TRACE, 1, 2, TraceFlags.SAMPLED, undefined);
    const parent = new RecordedSpanContext(TRACE, 3, 4, TraceFlags.SAMPLED, undefined);
    const resource = resourceFromAttributes({ 'service.name': 'other' });
    const span = startSpan({ context, parent, kind: SpanKind.SERVER, resource, scope: { name: 'scope', version: '1' } });
    expect([span.spanContext(), span.parentSpanContext, span.kind, span.resource, span.instrumentationScope]).toEqual([context, parent, SpanKind.SERVER, resource, { name: 'scope', version: '1' }]);
  });

  it('takes a new name', () => {
    expect(startSpan().updateName('renamed').name).toBe('renamed');
  });

  it('is recording until it ends', () => {
    const span = startSpan();
    const before = span.isRecording();
    span.end();
    expect([before, span.isRecording()]).toEqual([true, false]);
  });

  it('hands itself to every processor when it ends', () => {
    const processors = [new RecordingSpanProcessor(), new RecordingSpanProcessor()];
    const span = startSpan({ processors });
    span.end();
    expect(processors.map((p) => p.ended)).toEqual([[span], [span]]);
  });

  it('hands itself to its processors once, however often it is ended', () => {
    const processor = new RecordingSpanProcessor();
    const span = startSpan({ processors: [processor] });
    span.end(START_MILLIS + 1);
    span.end(START_MILLIS + 2);
    expect([processor.ended.length, span.endMillis]).toEqual([1, START_MILLIS + 1]);
  });

  it('keeps its attributes once ended', () => {
    expect(endedSpan().setAttribute('late', 1).setAttributes({ later: 2 }).attributes).toEqual({});
  });

  it('keeps its events once ended', () => {
    const span = endedSpan().addEvent('late');
    span.recordException(new Error('late'));
    expect(span.events).toEqual([]);
  });

  it('keeps its links once ended', () => {
    expect(endedSpan().addLink({ context: LINKED }).addLinks([{ context: LINKED }]).links).toEqual([]);
  });

  it('keeps its status once ended', () => {
    expect(endedSpan().setStatus({ code: SpanStatusCode.ERROR }).status).toEqual({ code: SpanStatusCode.UNSET });
  });

  it('keeps its name once ended', () => {
    expect(endedSpan().updateName('late').name).toBe('stage');
  });
});
