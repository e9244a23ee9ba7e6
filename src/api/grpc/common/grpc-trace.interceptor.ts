import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { ROOT_CONTEXT, context as otelContext, type Context, type TextMapGetter } from '@opentelemetry/api';
import { Observable } from 'rxjs';
import { isSluiceError } from '../../../common/errors/index.js';
import { ATTR, SPAN, endRpcServerSpan, startRpcServerSpan, withChildSpan, type ServerSpan, type Telemetry } from '../../../telemetry/index.js';
import { grpcStatusOf } from '../../error-mapping.js';
import type { GrpcAuthGuard } from './grpc-auth.guard.js';
import { callPathOf } from './grpc-call.js';

/** gRPC's INTERNAL, for failures that are not Sluice errors. */
const GRPC_INTERNAL = 13;

/** Reads W3C trace context (`traceparent`, `tracestate`, baggage) from call metadata. */
const METADATA_GETTER: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const values = metadata.get(key).filter((v): v is string => typeof v === 'string');
    return values.length === 0 ? undefined : values;
  },
};

/** The trace context of each traced call, by its grpc-js call object (what a handler gets as its third argument). */
const callContexts = new WeakMap<object, Context>();

/**
 * The trace context of a traced call (its RPC server span, with the server's tracer), for handlers to pass
 * with the request's knobs; undefined when the port does not trace.
 */
export function callTraceContext(call: object): Context | undefined {
  return callContexts.get(call);
}

function statusOf(error: unknown): number {
  if (isSluiceError(error)) return grpcStatusOf(error.category);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : GRPC_INTERNAL;
}

/**
 * The request span of a gRPC call, like the server span of an HTTP request: `<service>/<method>` with the
 * `rpc.*` attributes, continuing the trace in the call's metadata, ended with the call's gRPC status. The
 * port's auth guard runs here, inside an `auth` child span, before the handler (an interceptor rather than
 * a Nest guard, because guards run before any interceptor and so outside the request span). The span's
 * context is kept for the call ({@link callTraceContext}) and handed explicitly from there. The handler
 * is also started in `context.with` of the call's context (with tracing off, the one its metadata
 * carries), for code that reads the active context while it runs synchronously under an embedder's
 * context manager; Sluice needs no context manager.
 */
export class GrpcTraceInterceptor implements NestInterceptor {
  constructor(
    private readonly telemetry: Telemetry,
    private readonly guard?: GrpcAuthGuard,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const metadata = context.switchToRpc().getContext<Metadata | undefined>();
    const call: unknown = context.getArgByIndex(2);
    const [, service = '', method = ''] = callPathOf(call).split('/');
    const server: ServerSpan | undefined = metadata && this.telemetry.tracing ? startRpcServerSpan(this.telemetry, { service, method }, metadata, METADATA_GETTER) : undefined;
    if (server !== undefined && typeof call === 'object' && call !== null) callContexts.set(call, server.context);
    const callContext: Context = server?.context ?? (metadata ? this.telemetry.extract(metadata, METADATA_GETTER) : ROOT_CONTEXT);
    const guard = this.guard;
    return new Observable((subscriber) => {
      const authorized = guard
        ? withChildSpan(server?.context, SPAN.auth, { [ATTR.authProvider]: guard.providerName }, () => guard.canActivate(context))
        : Promise.resolve(true);
      authorized.then(
        () =>
          otelContext.with(callContext, () =>
            next.handle().subscribe({
              next: (value) => {
                subscriber.next(value);
              },
              error: (error: unknown) => {
                endRpcServerSpan(server, statusOf(error), error);
                subscriber.error(error);
              },
              complete: () => {
                endRpcServerSpan(server, 0);
                subscriber.complete();
              },
            }),
          ),
        (error: unknown) => {
          endRpcServerSpan(server, statusOf(error), error);
          subscriber.error(error);
        },
      );
    });
  }
}
