import { trace, type Context, type SpanContext } from '@opentelemetry/api';
import type { LogFields } from '../../common/logger.js';

/** `trace_id`, `span_id` and `trace_flags` of `span`, as every log line writes them. */
export function spanLogFields(span: SpanContext): Record<string, string> {
  return { trace_id: span.traceId, span_id: span.spanId, trace_flags: `0${span.traceFlags.toString(16)}` };
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
