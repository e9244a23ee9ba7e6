import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { ROOT_CONTEXT, context as otelContext, propagation, type TextMapGetter } from '@opentelemetry/api';
import { Observable } from 'rxjs';

/** Reads W3C trace context (`traceparent`, `tracestate`, baggage) from call metadata. */
const METADATA_GETTER: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const values = metadata.get(key).filter((v): v is string => typeof v === 'string');
    return values.length === 0 ? undefined : values;
  },
};

/**
 * Runs each call inside the trace context its metadata carries, so spans made while serving it join the
 * client's trace. Without a registered propagator (telemetry off) this is a no-op.
 */
export class GrpcTraceInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const metadata = context.switchToRpc().getContext<Metadata | undefined>();
    if (metadata === undefined) return next.handle();
    const parent = propagation.extract(ROOT_CONTEXT, metadata, METADATA_GETTER);
    return new Observable((subscriber) => otelContext.with(parent, () => next.handle().subscribe(subscriber)));
  }
}
