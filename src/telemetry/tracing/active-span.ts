import { context, trace, type Context, type Span, type SpanOptions } from '@opentelemetry/api';

/** How a tracer starts one span: name, options, parent context. */
export type StartSpan = (name: string, options: SpanOptions | undefined, parent: Context) => Span;

/**
 * `Tracer.startActiveSpan` for any tracer: reads its overloads (`name, [options, [context]], fn`), starts
 * the span with `start` under the given context (else `fallback`'s), and runs `fn` with the span active
 * in the context manager, for code that reads the active context.
 */
export function startActiveSpan(start: StartSpan, name: string, rest: readonly unknown[], fallback: () => Context): unknown {
  const fn = rest[rest.length - 1] as (span: Span) => unknown;
  const options = rest.length >= 2 ? (rest[0] as SpanOptions | undefined) : undefined;
  const base = (rest.length >= 3 ? (rest[1] as Context | undefined) : undefined) ?? fallback();
  const span = start(name, options, base);
  return context.with(trace.setSpan(base, span), fn, undefined, span);
}
