import { describe, expect, it } from '@jest/globals';
import { TraceFlags, createContextKey, trace } from '@opentelemetry/api';
import { CHAINED_ROOT_CONTEXT } from '../../../../../src/telemetry/tracing/recording/chained-context.js';

const A = createContextKey('sluice.test.a');
const B = createContextKey('sluice.test.b');
const C = createContextKey('sluice.test.c');

describe('CHAINED_ROOT_CONTEXT', () => {
  it('holds no value', () => {
    expect(CHAINED_ROOT_CONTEXT.getValue(A)).toBeUndefined();
  });

  it('gives a value set on it back from the new context', () => {
    expect(CHAINED_ROOT_CONTEXT.setValue(A, 'a').getValue(A)).toBe('a');
  });

  it('is left unchanged by setting a value', () => {
    CHAINED_ROOT_CONTEXT.setValue(A, 'a');
    expect(CHAINED_ROOT_CONTEXT.getValue(A)).toBeUndefined();
  });

  it('finds values set several links earlier', () => {
    const ctx = CHAINED_ROOT_CONTEXT.setValue(A, 'a').setValue(B, 'b').setValue(C, 'c');
    expect([ctx.getValue(A), ctx.getValue(B), ctx.getValue(C)]).toEqual(['a', 'b', 'c']);
  });

  it('gives the latest value of a key set twice', () => {
    const ctx = CHAINED_ROOT_CONTEXT.setValue(A, 'first').setValue(B, 'b').setValue(A, 'second');
    expect(ctx.getValue(A)).toBe('second');
  });

  it('keeps the earlier value in the context a later one was set on', () => {
    const earlier = CHAINED_ROOT_CONTEXT.setValue(A, 'first');
    earlier.setValue(A, 'second');
    expect(earlier.getValue(A)).toBe('first');
  });

  it('hides a deleted value, however many links back it was set', () => {
    const ctx = CHAINED_ROOT_CONTEXT.setValue(A, 'a').setValue(B, 'b').deleteValue(A);
    expect(ctx.getValue(A)).toBeUndefined();
  });

  it('keeps the other values when one is deleted', () => {
    const ctx = CHAINED_ROOT_CONTEXT.setValue(A, 'a').setValue(B, 'b').deleteValue(A);
    expect(ctx.getValue(B)).toBe('b');
  });

  it('keeps a value in the context it was deleted from', () => {
    const before = CHAINED_ROOT_CONTEXT.setValue(A, 'a');
    before.deleteValue(A);
    expect(before.getValue(A)).toBe('a');
  });

  it('gives a value set again after its deletion', () => {
    expect(CHAINED_ROOT_CONTEXT.setValue(A, 'a').deleteValue(A).setValue(A, 'again').getValue(A)).toBe('again');
  });

  it('carries span contexts for the API’s trace helpers', () => {
    const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true };
    const ctx = trace.setSpanContext(CHAINED_ROOT_CONTEXT, spanContext);
    expect(trace.getSpanContext(ctx)).toEqual(spanContext);
  });

  it('loses the span for the API’s trace helpers once it is deleted', () => {
    const spanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };
    const ctx = trace.deleteSpan(trace.setSpanContext(CHAINED_ROOT_CONTEXT, spanContext));
    expect(trace.getSpan(ctx)).toBeUndefined();
  });
});
