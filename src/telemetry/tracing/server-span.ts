import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type SpanOptions, type TextMapGetter } from '@opentelemetry/api';
import { ATTR } from '../telemetry-names.js';
import { contextWithTracer } from './trace-context.js';
import { recordFailure } from './span-helpers.js';
import type { Telemetry } from './telemetry.js';

/**
 * A server span and the request's trace context: the span, with the server's tracer attached. The context
 * is handed explicitly to everything that works for the request (no context manager carries it).
 */
export interface ServerSpan {
  readonly span: Span;
  readonly context: Context;
}

/**
 * Starts the server span of one incoming request, as a child of the context the caller sent in `carrier`
 * (W3C `traceparent` / `tracestate` / `baggage`, read with `getter`). Undefined when tracing is off.
 * `attributes` are made and set only when the span records: most requests are not sampled at a ratio,
 * and the samplers Sluice configures do not read attributes.
 */
export function startServerSpan<C>(telemetry: Telemetry, name: string, carrier: C, getter: TextMapGetter<C>, attributes: () => Attributes): ServerSpan | undefined {
  const tracer = telemetry.tracer;
  if (tracer === undefined) return undefined;
  const parent = telemetry.extract(carrier, getter);
  const span = tracer.startSpan(name, SERVER_KIND, parent);
  if (span.isRecording()) span.setAttributes(attributes());
  return { span, context: contextWithTracer(trace.setSpan(parent, span), tracer) };
}

/** The options of every server span (the SDK reads them and keeps no reference). */
const SERVER_KIND: SpanOptions = Object.freeze({ kind: SpanKind.SERVER });

/** What identifies one RPC: `package.Service` and the method name. */
export interface RpcCall {
  readonly service: string;
  readonly method: string;
  /** `grpc` unless said otherwise. */
  readonly system?: string;
}

/**
 * Starts the server span of an RPC (`<service>/<method>`, `rpc.system` / `rpc.service` / `rpc.method`),
 * parented on the context in the call's metadata. For gRPC metadata, `getter` reads the first value of a
 * key. Hand `result.context` to the call's work, then {@link endRpcServerSpan}.
 */
export function startRpcServerSpan<C>(telemetry: Telemetry, call: RpcCall, carrier: C, getter: TextMapGetter<C>): ServerSpan | undefined {
  return startServerSpan(telemetry, `${call.service}/${call.method}`, carrier, getter, () => ({
    [ATTR.rpcSystem]: call.system ?? 'grpc',
    [ATTR.rpcService]: call.service,
    [ATTR.rpcMethod]: call.method,
  }));
}

/** Ends an RPC server span with its gRPC status code (0 = OK); any other code marks it failed. */
export function endRpcServerSpan(server: ServerSpan | undefined, grpcStatusCode: number, error?: unknown): void {
  if (server === undefined) return;
  server.span.setAttribute(ATTR.rpcGrpcStatusCode, grpcStatusCode);
  if (grpcStatusCode !== 0) {
    if (error !== undefined) recordFailure(server.span, error);
    else server.span.setStatus({ code: SpanStatusCode.ERROR });
  }
  server.span.end();
}
