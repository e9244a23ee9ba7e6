import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, context, trace, type TextMapGetter } from '@opentelemetry/api';
import { tracerFor } from '../../../../src/telemetry/tracing/request-tracer.js';
import { startServerSpan } from '../../../../src/telemetry/tracing/server-span.js';
import { Telemetry } from '../../../../src/telemetry/tracing/telemetry.js';
import { SpanRecorder, only } from '../../../support/telemetry/span-recorder.js';

const NO_HEADERS: TextMapGetter<Record<string, string>> = { keys: () => [], get: () => undefined };

describe('explicit trace context', () => {
  it('needs no context manager, and telemetry installs none, tracing on or off', () => {
    new Telemetry();
    const recorder = new SpanRecorder();
    const server = startServerSpan(recorder.telemetry, 'POST /predictions/:model', {}, NO_HEADERS, () => ({}))!;
    // With a context manager, context.with would make server.context the active one.
    expect(context.with(server.context, () => context.active())).toBe(ROOT_CONTEXT);
    server.span.end();
  });
});

describe('tracerFor', () => {
  it('starts active spans as children of its parent, with the server’s tracer', async () => {
    const recorder = new SpanRecorder();
    const server = startServerSpan(recorder.telemetry, 'POST /predictions/:model', {}, NO_HEADERS, () => ({}))!;
    await tracerFor(server.context).startActiveSpan('resize', async (span) => {
      await Promise.resolve();
      span.end();
    });
    server.span.end();
    expect(only(recorder.spans, 'resize').parentSpanContext?.spanId).toBe(server.span.spanContext().spanId);
  });

  it('parents a span on the context it is given instead', () => {
    const recorder = new SpanRecorder();
    const server = startServerSpan(recorder.telemetry, 'POST /predictions/:model', {}, NO_HEADERS, () => ({}))!;
    const tracer = tracerFor(server.context);
    const outer = tracer.startSpan('outer');
    tracer.startSpan('inner', {}, trace.setSpan(ROOT_CONTEXT, outer)).end();
    outer.end();
    server.span.end();
    expect(only(recorder.spans, 'inner').parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(only(recorder.spans, 'outer').parentSpanContext?.spanId).toBe(server.span.spanContext().spanId);
  });

  it('makes spans that record nothing when its parent carries no server tracer', () => {
    expect(tracerFor(ROOT_CONTEXT).startSpan('resize').isRecording()).toBe(false);
  });
});
