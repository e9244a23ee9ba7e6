import { describe, expect, it } from '@jest/globals';
import { TraceFlags, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { RecordedSpanContext } from '../../../../../src/telemetry/tracing/recording/recorded-span-context.js';
import { TraceId } from '../../../../../src/telemetry/tracing/recording/trace-id.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
/** {@link TRACE_ID} as the words a recorded span context keeps. */
const TRACE = new TraceId(0x4bf92f35, 0x77b34da6, 0xa3ce929d, 0x0e0e4736);

describe('RecordedSpanContext', () => {
  it('spells the span id as its high then low half in hex', () => {
    expect(new RecordedSpanContext(TRACE, 0x00f067aa, 0x0ba902b7, TraceFlags.SAMPLED, undefined).spanId).toBe('00f067aa0ba902b7');
  });

  it('spells each half with its leading zeros, as 16 hex digits in all', () => {
    expect(new RecordedSpanContext(TRACE, 0x1, 0xab, TraceFlags.SAMPLED, undefined).spanId).toBe('00000001000000ab');
  });

  it('spells halves with the top bit set as unsigned numbers', () => {
    expect(new RecordedSpanContext(TRACE, 0xffffffff, 0x80000000, TraceFlags.SAMPLED, undefined).spanId).toBe('ffffffff80000000');
  });

  it('spells the same id each time it is read', () => {
    const context = new RecordedSpanContext(TRACE, 0x12345678, 0x9abcdef0, TraceFlags.SAMPLED, undefined);
    expect([context.spanId, context.spanId]).toEqual(['123456789abcdef0', '123456789abcdef0']);
  });

  it('keeps its trace id, trace flags and tracestate', () => {
    const traceState = new TraceState('vendor=value');
    const context = new RecordedSpanContext(TRACE, 1, 2, TraceFlags.NONE, traceState);
    expect([context.traceId, context.traceFlags, context.traceState]).toEqual([TRACE_ID, TraceFlags.NONE, traceState]);
  });

  it('is a valid span context for the API', () => {
    expect(trace.isSpanContextValid(new RecordedSpanContext(TRACE, 0, 1, TraceFlags.SAMPLED, undefined))).toBe(true);
  });
});
