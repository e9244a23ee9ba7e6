import type { Metadata } from '@grpc/grpc-js';
import { context as otelContext, type Context, type TextMapGetter } from '@opentelemetry/api';
import { isSluiceError } from '../../../sdk/errors/index.js';
import type { Logger } from '../../../sdk/logging/logger.js';
import { ATTR, SPAN, endRpcServerSpan, startRpcServerSpan, traceLogFields, withChildSpan, type Telemetry } from '../../../telemetry/index.js';
import type { GrpcCallScope } from '../transport/grpc-server-call.js';
import type { GrpcAuthGuard } from './grpc-auth.guard.js';
import { grpcFailureOf } from '../errors/grpc-status-error.js';

/** Reads W3C trace context (`traceparent`, `tracestate`, baggage) from call metadata. */
const METADATA_GETTER: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const values = metadata.get(key).filter((v): v is string => typeof v === 'string');
    return values.length === 0 ? undefined : values;
  },
};

/** The trace context of each traced call, by its call object (what a handler gets as its third argument). */
const callContexts = new WeakMap<object, Context>();

/**
 * The trace context of a traced call (its RPC server span, with the server's tracer), for handlers to pass
 * with the request's knobs; undefined when the port does not trace.
 */
export function callTraceContext(call: object): Context | undefined {
  return callContexts.get(call);
}

/** The Sluice error behind a call's failure (the filter wraps it in a status error), for the span. */
function spanError(error: unknown): unknown {
  const cause = (error as { cause?: unknown } | null | undefined)?.cause;
  return isSluiceError(cause) ? cause : error;
}

/**
 * What runs around every call of a gRPC port, before Nest sees it: the call runs in the trace context its
 * metadata carries; with tracing on, inside an RPC server span (`<service>/<method>`, the `rpc.*`
 * attributes) that ends with the call's gRPC status; and the port's auth guard runs first, inside an
 * `auth` child span, so that a refused call reaches no handler. This sits in the transport rather than
 * in a Nest interceptor because every Nest interceptor costs each call several async resources and
 * Observables, and the span can then end with the status actually sent.
 */
export function grpcCallScope(telemetry: Telemetry, logger: Logger, guard?: GrpcAuthGuard): GrpcCallScope {
  return (call, run) => {
    const path = call.getPath();
    const metadata = call.metadata;
    let callContext = telemetry.extract(metadata, METADATA_GETTER);
    let serverContext: Context | undefined;
    if (telemetry.tracing) {
      const [, service = '', method = ''] = path.split('/');
      const server = startRpcServerSpan(telemetry, { service, method }, metadata, METADATA_GETTER);
      if (server) {
        callContext = server.context;
        serverContext = server.context;
        callContexts.set(call, server.context);
        call.onStatus((code, error) => {
          // As for HTTP requests: a weak map's entry would keep the ended span alive as long as the call object.
          callContexts.delete(call);
          endRpcServerSpan(server, code, code === 0 ? undefined : spanError(error));
        });
      }
    }
    if (guard === undefined) {
      if (callContext === otelContext.active()) run();
      else otelContext.with(callContext, run);
      return;
    }
    otelContext.with(callContext, () => {
      withChildSpan(serverContext, SPAN.auth, { [ATTR.authProvider]: guard.providerName }, () => (guard.guards(path) ? guard.check(path, metadata) : undefined)).then(
        () => {
          otelContext.with(callContext, run);
        },
        (error: unknown) => {
          call.emit('error', grpcFailureOf(error, logger, path, traceLogFields(serverContext)));
        },
      );
    });
  };
}
