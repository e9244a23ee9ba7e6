import { SpanStatusCode, context, trace, type Attributes, type Span } from '@opentelemetry/api';
import { isSluiceError } from '../../common/errors/index.js';
import { ATTR } from '../telemetry-names.js';
import { activeTracer, recordingSpan } from './active-tracer.js';

/** Marks `span` failed: status ERROR with the message, the exception recorded, and the Sluice error code. */
export function recordFailure(span: Span, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  span.recordException(failure);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
  if (isSluiceError(error)) span.setAttributes({ [ATTR.errorCode]: error.code, [ATTR.errorType]: error.code });
  else span.setAttribute(ATTR.errorType, failure.name);
}

/**
 * Runs `fn` inside a child span `name` of the active span and ends it when `fn` settles; an error marks
 * the span failed ({@link recordFailure}) and is rethrown. Outside a sampled request (tracing off, not
 * sampled) it only calls `fn`. For auth checks (`SPAN.auth`), envelope decoding (`SPAN.envelopeDecode`),
 * handler stages and anything else that belongs to one request.
 */
export async function withChildSpan<T>(name: string, attributes: Attributes, fn: (span: Span | undefined) => Promise<T> | T): Promise<T> {
  const tracer = activeTracer();
  if (tracer === undefined || recordingSpan() === undefined) return fn(undefined);
  const span = tracer.startSpan(name, { attributes });
  try {
    return await context.with(trace.setSpan(context.active(), span), () => fn(span));
  } catch (error) {
    recordFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Adds attributes to the active span when it is recorded (a request's model, once resolved). */
export function annotateActiveSpan(attributes: Attributes): void {
  recordingSpan()?.setAttributes(attributes);
}

/** Records `error` on the active span when it is recorded (error filters, which see every failure). */
export function recordActiveFailure(error: unknown): void {
  const span = recordingSpan();
  if (span !== undefined) recordFailure(span, error);
}
