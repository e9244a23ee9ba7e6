import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Metadata } from '@grpc/grpc-js';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { Observable, lastValueFrom } from 'rxjs';
import { GrpcTraceInterceptor } from '../../../../src/api/grpc/common/grpc-trace.interceptor.js';
import { Telemetry, TELEMETRY_OFF } from '../../../../src/telemetry/index.js';

/** Tracing off: the interceptor only carries the caller's context. */
const telemetryOff = new Telemetry(TELEMETRY_OFF);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** What Nest hands an interceptor for a gRPC call: the request, its metadata and the call. */
function rpcContext(metadata: Metadata): ExecutionContext {
  const call = { getPath: () => '/inference.GRPCInferenceService/ModelInfer' };
  return { switchToRpc: () => ({ getContext: () => metadata, getData: () => ({}) }), getArgByIndex: (i: number) => (i === 2 ? call : undefined) } as unknown as ExecutionContext;
}

/** A handler that reports the trace id of the context it runs in. */
const traceIdHandler: CallHandler<string | undefined> = {
  handle: () => new Observable<string | undefined>((subscriber) => {
    subscriber.next(trace.getSpanContext(context.active())?.traceId);
    subscriber.complete();
  }),
};

describe('GrpcTraceInterceptor', () => {
  beforeEach(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterEach(() => {
    context.disable();
    propagation.disable();
  });

  it('runs the handler inside the trace context of the call’s traceparent metadata', async () => {
    const metadata = new Metadata();
    metadata.set('traceparent', PARENT);
    const seen = await lastValueFrom(new GrpcTraceInterceptor(telemetryOff).intercept(rpcContext(metadata), traceIdHandler));
    expect(seen).toBe(TRACE_ID);
  });

  it('runs the handler without a trace context when the metadata carries none', async () => {
    const seen = await lastValueFrom(new GrpcTraceInterceptor(telemetryOff).intercept(rpcContext(new Metadata()), traceIdHandler));
    expect(seen).toBeUndefined();
  });
});
