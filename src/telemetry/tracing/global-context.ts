import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';

let installed = false;

/**
 * Installs, once per process, what must be global for context to flow: one AsyncLocalStorage context
 * manager (so `context.active()` follows async calls) and the W3C trace-context and baggage propagator
 * (so outgoing calls carry `traceparent`). Tracer and meter providers stay per server; these two are
 * shared by every server of the process. Later calls do nothing.
 */
export function installGlobalContext(): void {
  if (installed) return;
  installed = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
}
