import { context, trace, type Context, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { INSTRUMENTATION_SCOPE } from '../telemetry-names.js';
import { startActiveSpan } from './active-span.js';
import { tracerOf } from './trace-context.js';

/** What spans are made with outside a traced request: the API's no-op tracer (no provider is global). */
const NO_OP = trace.getTracer(INSTRUMENTATION_SCOPE);

/**
 * A tracer whose spans are children of `parent` unless given another context: what a handler gets as
 * `context.tracer` for one traced call, so that its spans join the request's trace under the stage that
 * called it. It starts spans with the tracer `parent` carries (each server has its own). Sluice installs
 * no context manager, so a span is not "active" for the spans started inside it: to nest spans, pass the
 * outer one as the parent (`tracer.startSpan('inner', {}, trace.setSpan(ROOT_CONTEXT, outer))`).
 */
export function tracerFor(parent: Context): Tracer {
  const tracer = tracerOf(parent) ?? NO_OP;
  const startSpan = (name: string, options?: SpanOptions, ctx?: Context): Span => tracer.startSpan(name, options, ctx ?? parent);
  return {
    startSpan,
    startActiveSpan: (name: string, ...rest: unknown[]) => startActiveSpan((n, options, base) => tracer.startSpan(n, options, base), name, rest, () => parent),
  };
}

/**
 * The tracer of a handler context outside any traced call (tracing off, a request not sampled, a worker
 * thread, which spans cannot leave): no-op spans, unless a caller passes a context that carries a
 * server's tracer explicitly.
 */
export const requestTracer: Tracer = {
  startSpan: (name, options, ctx) => (tracerOf(ctx) ?? NO_OP).startSpan(name, options, ctx),
  startActiveSpan: (name: string, ...rest: unknown[]) =>
    startActiveSpan((n, options, base) => (tracerOf(base) ?? NO_OP).startSpan(n, options, base), name, rest, () => context.active()),
};
