import { context, createContextKey, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';

const TRACER_KEY = createContextKey('sluice.tracer');

/**
 * `parent` carrying the tracer of the server that handles the request. Every server has its own tracer
 * provider, so the tracer travels with the request's context: code deep in the core (scheduler, workflow
 * executor, handlers) finds it there and needs no tracer of its own.
 */
export function contextWithTracer(parent: Context, tracer: Tracer): Context {
  return parent.setValue(TRACER_KEY, tracer);
}

/** The tracer of the request being handled, or undefined outside a traced request (tracing off). */
export function activeTracer(from: Context = context.active()): Tracer | undefined {
  return from.getValue(TRACER_KEY) as Tracer | undefined;
}

/** The active span when it records (sampled), else undefined: the test that keeps unsampled requests cheap. */
export function recordingSpan(from: Context = context.active()): Span | undefined {
  const span = trace.getSpan(from);
  return span?.isRecording() === true ? span : undefined;
}
