import type { SpanContext, TraceState } from '@opentelemetry/api';
import type { TraceId } from './trace-id.js';

const scratch = Buffer.alloc(8);

/** Two 32-bit halves as 16 hex digits, in one conversion. */
function hex16(high: number, low: number): string {
  scratch.writeUInt32BE(high >>> 0, 0);
  scratch.writeUInt32BE(low >>> 0, 4);
  return scratch.toString('hex');
}

/**
 * The context of a span this server records. Its span id is kept as two 32-bit numbers and its trace id
 * as a {@link TraceId}, both spelled in hex only when read: most spans' ids are only ever written to the
 * wire as bytes (see the OTLP encoding).
 */
export class RecordedSpanContext implements SpanContext {
  private hex: string | undefined;

  constructor(
    /** The trace this span belongs to, shared with every other span of it that this server records. */
    readonly trace: TraceId,
    /** The span id's first four bytes, big-endian. */
    readonly spanIdHigh: number,
    /** The span id's last four bytes, big-endian. */
    readonly spanIdLow: number,
    readonly traceFlags: number,
    readonly traceState: TraceState | undefined,
  ) {}

  get traceId(): string {
    return this.trace.hex;
  }

  get spanId(): string {
    return (this.hex ??= hex16(this.spanIdHigh, this.spanIdLow));
  }
}
