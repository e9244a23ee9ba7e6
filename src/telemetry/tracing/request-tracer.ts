import { context, trace, type Context, type Tracer } from '@opentelemetry/api';
import { INSTRUMENTATION_SCOPE } from '../telemetry-names.js';
import { activeTracer } from './active-tracer.js';

/** What spans are made with outside a traced request: the API's no-op tracer (no provider is global). */
const NO_OP = trace.getTracer(INSTRUMENTATION_SCOPE);

function current(from: Context = context.active()): Tracer {
  return activeTracer(from) ?? NO_OP;
}

/**
 * The tracer handlers are given: it starts spans with the tracer of the request being handled (each
 * server has its own), so a handler's spans join the request's trace, and makes no-op spans when the
 * request is not traced. One object serves every request, since it looks the tracer up at each call.
 */
export const requestTracer: Tracer = {
  startSpan: (name, options, ctx) => current(ctx).startSpan(name, options, ctx),
  // The overloads of startActiveSpan all end in the callback; pass the arguments through unchanged.
  startActiveSpan: ((...args: Parameters<Tracer['startActiveSpan']>) => current().startActiveSpan(...args)) as Tracer['startActiveSpan'],
};
