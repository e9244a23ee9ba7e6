import { createContextKey, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';

const TRACER_KEY = createContextKey('sluice.tracer');

/**
 * `parent` carrying the tracer of the server that handles the request. Every server has its own tracer
 * provider, so the tracer travels with the request's trace context: code deep in the core (scheduler,
 * workflow executor, handlers) is handed that context explicitly and needs no tracer of its own.
 */
export function contextWithTracer(parent: Context, tracer: Tracer): Context {
  return parent.setValue(TRACER_KEY, tracer);
}

/** The tracer a request's trace context carries; undefined without a context or outside a traced server. */
export function tracerOf(from: Context | undefined): Tracer | undefined {
  return from?.getValue(TRACER_KEY) as Tracer | undefined;
}

/** The span of `from` when it records (sampled), else undefined: the test that keeps unsampled requests cheap. */
export function recordingSpanOf(from: Context | undefined): Span | undefined {
  if (from === undefined) return undefined;
  const span = trace.getSpan(from);
  return span?.isRecording() === true ? span : undefined;
}
