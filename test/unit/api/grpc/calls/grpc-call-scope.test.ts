import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Metadata, status } from '@grpc/grpc-js';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { SluiceError } from '../../../../../src/sdk/errors/index.js';
import { GrpcAuthGuard } from '../../../../../src/api/grpc/calls/grpc-auth.guard.js';
import { grpcCallScope } from '../../../../../src/api/grpc/calls/grpc-call-scope.js';
import type { GrpcServerCall } from '../../../../../src/api/grpc/transport/grpc-server-call.js';
import { Telemetry, TELEMETRY_OFF } from '../../../../../src/telemetry/index.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

/** Tracing off: the scope only carries the caller's context (and runs the guard). */
const telemetryOff = new Telemetry(TELEMETRY_OFF);

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** The part of a server call the scope uses: path, metadata, status listener, `emit('error')`. */
function fakeCall(metadata: Metadata, path = '/inference.GRPCInferenceService/ModelInfer'): { call: GrpcServerCall; errors: unknown[] } {
  const errors: unknown[] = [];
  const call = Object.assign(new EventEmitter(), { metadata, getPath: () => path, onStatus: () => undefined });
  call.on('error', (error: unknown) => errors.push(error));
  return { call: call as unknown as GrpcServerCall, errors };
}

/** Runs the scope around a handler that reports the trace id it runs under. */
function traceIdSeen(scope: ReturnType<typeof grpcCallScope>, call: GrpcServerCall): Promise<string | undefined> {
  return new Promise((resolve) => {
    scope(call, () => {
      resolve(trace.getSpanContext(context.active())?.traceId);
    });
  });
}

describe('grpcCallScope', () => {
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
    expect(await traceIdSeen(grpcCallScope(telemetryOff, new RecordingLogger()), fakeCall(metadata).call)).toBe(TRACE_ID);
  });

  it('runs the handler without a trace context when the metadata carries none', async () => {
    expect(await traceIdSeen(grpcCallScope(telemetryOff, new RecordingLogger()), fakeCall(new Metadata()).call)).toBeUndefined();
  });

  it('ends a call the guard refuses with the mapped status, without running the handler', async () => {
    const guard = new GrpcAuthGuard('inference', { name: 'no', authenticate: () => Promise.reject(new SluiceError('SLUICE_AUTH_MISSING_CREDENTIALS', 'send a token')) });
    const { call, errors } = fakeCall(new Metadata());
    let ran = false;
    grpcCallScope(telemetryOff, new RecordingLogger(), guard)(call, () => {
      ran = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(false);
    expect(errors).toMatchObject([{ code: status.UNAUTHENTICATED, details: 'send a token' }]);
  });
});
