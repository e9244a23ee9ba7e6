import type { SpanContext, TraceState } from '@opentelemetry/api';

function hex8(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/**
 * The context of a span this server records. Its span id is kept as two 32-bit numbers and spelled in hex
 * only when read: most spans' ids are only ever written to the wire as bytes (see the OTLP encoding).
 */
export class RecordedSpanContext implements SpanContext {
  private hex: string | undefined;

  constructor(
    readonly traceId: string,
    /** The span id's first four bytes, big-endian. */
    readonly spanIdHigh: number,
    /** The span id's last four bytes, big-endian. */
    readonly spanIdLow: number,
    readonly traceFlags: number,
    readonly traceState: TraceState | undefined,
  ) {}

  get spanId(): string {
    return (this.hex ??= hex8(this.spanIdHigh) + hex8(this.spanIdLow));
  }
}
