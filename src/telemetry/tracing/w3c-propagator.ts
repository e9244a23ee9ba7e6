import { defaultTextMapSetter, propagation, type Context, type TextMapPropagator } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * W3C trace context (`traceparent`, `tracestate`) and baggage, used directly by Sluice: extracting a
 * caller's context and injecting it into outgoing calls needs no global state.
 */
export const W3C_PROPAGATOR: TextMapPropagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

/** Headers that carry `from` to another service (`traceparent`, `tracestate`, `baggage`); none without a context. */
export function traceHeaders(from: Context | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (from !== undefined) W3C_PROPAGATOR.inject(from, headers, defaultTextMapSetter);
  return headers;
}

let installed = false;

/**
 * Makes {@link W3C_PROPAGATOR} the global propagator of `@opentelemetry/api`, for third-party code that
 * injects a context it is handed. Called when a server traces; later calls do nothing. No context manager
 * is installed: Sluice passes trace context explicitly.
 */
export function installGlobalPropagator(): void {
  if (installed) return;
  installed = true;
  propagation.setGlobalPropagator(W3C_PROPAGATOR);
}
