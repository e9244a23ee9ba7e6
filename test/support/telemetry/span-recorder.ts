import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { TELEMETRY_OFF, Telemetry } from '../../../src/telemetry/tracing/telemetry.js';
import type { TelemetrySettings } from '../../../src/telemetry/tracing/telemetry-settings.js';

/** A server's telemetry whose finished spans stay in memory, for assertions on span trees. */
export class SpanRecorder {
  readonly exporter = new InMemorySpanExporter();
  readonly telemetry: Telemetry;

  constructor(settings: Partial<TelemetrySettings> = {}) {
    this.telemetry = new Telemetry({ ...TELEMETRY_OFF, ...settings }, { spanProcessors: [new SimpleSpanProcessor(this.exporter)] });
  }

  /** Every span finished so far. */
  get spans(): ReadableSpan[] {
    return this.exporter.getFinishedSpans();
  }

  /** Forgets the spans finished so far. */
  reset(): void {
    this.exporter.reset();
  }

  /**
   * Resolves with the finished spans once `ready` holds for them. A server span ends after its answer is
   * sent, so a test waits for it rather than reading the spans when the response arrives.
   */
  async until(ready: (spans: readonly ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
    while (!ready(this.spans)) await new Promise((resolve) => setTimeout(resolve, 5));
    return this.spans;
  }

  /** The spans of trace `traceId`. */
  inTrace(traceId: string): ReadableSpan[] {
    return this.spans.filter((s) => s.spanContext().traceId === traceId);
  }
}

/** The spans whose parent is `parent`. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
}

/** The one span named `name`; throws when there are none or several. */
export function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one span ${name}, found ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

/** A W3C traceparent of a sampled caller span. */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
