import { describe, expect, it } from '@jest/globals';
import { TraceFlags, defaultTextMapGetter, trace } from '@opentelemetry/api';
import { startServerSpan } from '../../../../src/telemetry/tracing/server-span.js';
import type { SamplerName } from '../../../../src/telemetry/tracing/telemetry-settings.js';
import { SpanRecorder, traceparent } from '../../../support/telemetry/span-recorder.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';

/** What a caller sends: nothing, or a `traceparent` it sampled or did not. */
type Caller = 'no caller' | 'sampled caller' | 'unsampled caller';

function headersOf(caller: Caller): Record<string, string> {
  if (caller === 'no caller') return {};
  const sampled = traceparent(TRACE_ID, CALLER_SPAN_ID);
  return { traceparent: caller === 'sampled caller' ? sampled : sampled.replace(/-01$/, '-00') };
}

/** Whether a server configured with `sampler` records the request span of a request from `caller`, and what it tells downstream. */
function decision(sampler: SamplerName, samplerArg: number, caller: Caller): { recorded: boolean; sampledFlag: boolean } {
  const recorder = new SpanRecorder({ sampler, samplerArg });
  const server = startServerSpan(recorder.telemetry, 'POST /predictions/:model', headersOf(caller), defaultTextMapGetter, () => ({}));
  if (server === undefined) throw new Error('tracing is off');
  server.span.end();
  return { recorded: recorder.spans.length === 1, sampledFlag: (server.span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0 };
}

const RECORDED = { recorded: true, sampledFlag: true };
const DROPPED = { recorded: false, sampledFlag: false };

describe('the sampler a server is configured with (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG)', () => {
  const cases: ReadonlyArray<readonly [SamplerName, number, Caller, typeof RECORDED]> = [
    ['always_on', 1, 'no caller', RECORDED],
    ['always_on', 1, 'unsampled caller', RECORDED],
    ['always_off', 1, 'no caller', DROPPED],
    ['always_off', 1, 'sampled caller', DROPPED],
    ['traceidratio', 1, 'no caller', RECORDED],
    ['traceidratio', 1, 'unsampled caller', RECORDED],
    ['traceidratio', 0, 'sampled caller', DROPPED],
    ['parentbased_always_on', 1, 'no caller', RECORDED],
    ['parentbased_always_on', 1, 'sampled caller', RECORDED],
    ['parentbased_always_on', 1, 'unsampled caller', DROPPED],
    ['parentbased_always_off', 1, 'no caller', DROPPED],
    ['parentbased_always_off', 1, 'sampled caller', RECORDED],
    ['parentbased_always_off', 1, 'unsampled caller', DROPPED],
    ['parentbased_traceidratio', 0, 'no caller', DROPPED],
    ['parentbased_traceidratio', 0, 'sampled caller', RECORDED],
    ['parentbased_traceidratio', 1, 'no caller', RECORDED],
    ['parentbased_traceidratio', 1, 'unsampled caller', DROPPED],
  ];

  it.each(cases)('%s (ratio %d) with a request from %s: %o', (sampler, samplerArg, caller, expected) => {
    expect(decision(sampler, samplerArg, caller)).toEqual(expected);
  });

  it('continues the caller’s trace id, sampled or not', () => {
    const recorder = new SpanRecorder({ sampler: 'parentbased_always_on' });
    const server = startServerSpan(recorder.telemetry, 'POST /predictions/:model', headersOf('unsampled caller'), defaultTextMapGetter, () => ({}));
    expect(server?.span.spanContext().traceId).toBe(TRACE_ID);
  });

  it('records about the configured share of requests without a caller under parentbased_traceidratio', () => {
    const recorder = new SpanRecorder({ sampler: 'parentbased_traceidratio', samplerArg: 0.25 });
    for (let i = 0; i < 2000; i++) startServerSpan(recorder.telemetry, 'POST /predictions/:model', {}, defaultTextMapGetter, () => ({}))?.span.end();
    // 500 expected; the bounds are more than seven standard deviations (about 19) away.
    expect(recorder.spans.length).toBeGreaterThan(350);
    expect(recorder.spans.length).toBeLessThan(650);
  });

  it('records no child of a request span that was not sampled, and every child of one that was', () => {
    const recorder = new SpanRecorder({ sampler: 'parentbased_always_off' });
    const tracer = recorder.telemetry.tracer;
    const sampled = startServerSpan(recorder.telemetry, 'sampled', headersOf('sampled caller'), defaultTextMapGetter, () => ({}));
    const unsampled = startServerSpan(recorder.telemetry, 'unsampled', headersOf('no caller'), defaultTextMapGetter, () => ({}));
    if (tracer === undefined || sampled === undefined || unsampled === undefined) throw new Error('tracing is off');
    tracer.startSpan('child of sampled', {}, trace.setSpan(sampled.context, sampled.span)).end();
    tracer.startSpan('child of unsampled', {}, trace.setSpan(unsampled.context, unsampled.span)).end();
    expect(recorder.spans.map((s) => s.name)).toEqual(['child of sampled']);
  });
});

describe('the attributes of a server span', () => {
  it('are written on a span that records', () => {
    const recorder = new SpanRecorder({ sampler: 'always_on' });
    startServerSpan(recorder.telemetry, 'POST /predictions/:model', {}, defaultTextMapGetter, () => ({ 'http.request.method': 'POST' }))?.span.end();
    expect(recorder.spans[0]?.attributes).toEqual({ 'http.request.method': 'POST' });
  });

  it('are not made for a span that is not sampled', () => {
    const recorder = new SpanRecorder({ sampler: 'always_off' });
    let made = 0;
    const server = startServerSpan(recorder.telemetry, 'POST /predictions/:model', {}, defaultTextMapGetter, () => {
      made += 1;
      return {};
    });
    server?.span.end();
    expect({ started: server !== undefined, made }).toEqual({ started: true, made: 0 });
  });
});
