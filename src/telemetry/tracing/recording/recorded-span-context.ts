import type { SpanContext, TraceState } from '@opentelemetry/api';
import { twoWordsHex } from '../hex-words.js';
import type { TraceId } from './trace-id.js';

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
    return (this.hex ??= twoWordsHex(this.spanIdHigh, this.spanIdLow));
  }
}
