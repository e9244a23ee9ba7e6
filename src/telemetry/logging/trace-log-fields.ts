import { trace, type Context, type SpanContext } from '@opentelemetry/api';
import type { LogFields, Logger } from '../../sdk/logging/logger.js';

/** Trace flags as two hex digits; sampled or not are nearly all there is. */
function traceFlagsText(flags: number): string {
  if (flags === 1) return '01';
  if (flags === 0) return '00';
  return flags.toString(16).padStart(2, '0');
}

/** `trace_id`, `span_id` and `trace_flags` of `span`, as every log line writes them. */
export function spanLogFields(span: SpanContext): Record<string, string> {
  const fields: Record<string, string> = {};
  setSpanLogFields(fields, span);
  return fields;
}

/**
 * Sets the trace fields of `span` on `fields`, one by one: assigning an object of them into a line's
 * fields copied it through a slower path, for every traced request.
 */
function setSpanLogFields(fields: Record<string, unknown>, span: SpanContext): void {
  fields['trace_id'] = span.traceId;
  fields['span_id'] = span.spanId;
  fields['trace_flags'] = traceFlagsText(span.traceFlags);
}

/** Adds the trace fields of `from`'s span, when it has one, to the fields of a line being built. */
export function addTraceLogFields(fields: Record<string, unknown>, from: Context): void {
  const span = trace.getSpan(from)?.spanContext();
  if (span !== undefined) setSpanLogFields(fields, span);
}

/**
 * The log fields that tie a line to the span of `from` (`trace_id`, `span_id`, `trace_flags`): request
 * lines pass them explicitly, since no context manager carries the request's context to the logger.
 * None without a context or span.
 */
export function traceLogFields(from: Context | undefined): LogFields {
  const span = from === undefined ? undefined : trace.getSpan(from);
  return span === undefined ? {} : spanLogFields(span.spanContext());
}

/**
 * `logger` with the trace fields of `from` on every line (before the line's own fields): for loggers
 * handed to work done for one traced request (handlers, workflow runs). A child logger, whose fields are
 * written once, when it is made; `logger` itself when `from` has no span.
 */
export function loggerWithTrace(logger: Logger, from: Context | undefined): Logger {
  const fields = traceLogFields(from);
  return Object.keys(fields).length === 0 ? logger : logger.child(fields);
}
