import { diag, TraceFlags } from '@opentelemetry/api';
import { ExportResultCode, globalErrorHandler, type ExportResult, type InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { BatchSpanSettings } from '../telemetry-settings.js';
import { writeExportRequest, writeSpan, type EncodedScopeSpans } from './otlp-span-encoding.js';
import { ProtobufWriter } from './protobuf-writer.js';

/** One encoded `ExportTraceServiceRequest` and the number of spans in it. */
export interface EncodedTraceRequest {
  /** Valid while `send` runs: the processor encodes its next request into the same memory. */
  readonly bytes: Uint8Array;
  readonly spanCount: number;
}

/**
 * Where encoded requests go: the OTLP/HTTP transport (headers, compression, retries, timeout). A sender
 * that needs a request's bytes after `send` returns copies them.
 */
export interface TraceRequestSender {
  send(request: EncodedTraceRequest, done: (result: ExportResult) => void): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** The spans of one resource and scope encoded since the last export. */
interface SpanGroup {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  readonly writer: ProtobufWriter;
}

/**
 * A batching span processor that encodes each sampled span into OTLP protobuf the moment it ends and
 * keeps only the bytes. The SDK's batch processor keeps the span objects until their batch is exported,
 * so thousands of them outlive young-generation collections and are copied and promoted; here a span is
 * garbage as soon as it ends, and a batch is a buffer. The standard `OTEL_BSP_*` settings keep their
 * meaning: a batch goes out when it holds `maxExportBatchSize` spans or `scheduledDelayMillis` after its
 * first span; spans encoded but not yet acknowledged are at most `maxQueueSize`, and spans beyond are
 * dropped (and counted in a warning); an export that takes longer than `exportTimeoutMillis` fails.
 */
export class EncodingSpanProcessor implements SpanProcessor {
  private readonly groups: SpanGroup[] = [];
  /** The groups with spans in the batch being filled, in the order of their first span in it (the SDK's order). */
  private readonly filled: SpanGroup[] = [];
  private readonly request = new ProtobufWriter();
  private last: SpanGroup | undefined;
  private batched = 0;
  private unacknowledged = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly exports = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly sender: TraceRequestSender,
    private readonly settings: BatchSpanSettings,
    /** Told of every failed export; the OpenTelemetry global error handler unless given. */
    private readonly reportFailure: (error: Error) => void = globalErrorHandler,
  ) {}

  onStart(): void {
    // Spans are encoded when they end.
  }

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.batched + this.unacknowledged >= this.settings.maxQueueSize) {
      this.dropped++;
      return;
    }
    const group = this.groupOf(span);
    if (group.writer.pos === 0) this.filled.push(group);
    writeSpan(group.writer, span);
    this.batched++;
    if (this.batched >= this.settings.maxExportBatchSize) void this.exportBatch();
    else this.timer ??= setTimeout(() => void this.exportBatch(), this.settings.scheduledDelayMillis).unref();
  }

  /** Exports what is encoded now and waits for every export under way. */
  async forceFlush(): Promise<void> {
    void this.exportBatch();
    await Promise.all(this.exports);
    await this.sender.forceFlush();
  }

  /** Exports what is encoded, then stops: later spans are ignored. */
  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.sender.shutdown();
  }

  private groupOf(span: ReadableSpan): SpanGroup {
    const last = this.last;
    if (last?.resource === span.resource && last.scope === span.instrumentationScope) return last;
    let group = this.groups.find((g) => g.resource === span.resource && g.scope === span.instrumentationScope);
    if (group === undefined) {
      group = { resource: span.resource, scope: span.instrumentationScope, writer: new ProtobufWriter() };
      this.groups.push(group);
    }
    this.last = group;
    return group;
  }

  private exportBatch(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const spanCount = this.batched;
    if (spanCount === 0) return Promise.resolve();
    this.warnOfDroppedSpans();
    const encoded: EncodedScopeSpans[] = this.filled.map((g) => ({ resource: g.resource, scope: g.scope, spans: g.writer.written() }));
    this.request.reset();
    writeExportRequest(this.request, encoded);
    const bytes = this.request.written();
    for (const group of this.filled) group.writer.reset();
    this.filled.length = 0;
    this.batched = 0;
    this.unacknowledged += spanCount;
    const exported = this.send({ bytes, spanCount }).finally(() => {
      this.unacknowledged -= spanCount;
      this.exports.delete(exported);
    });
    this.exports.add(exported);
    return exported;
  }

  private send(request: EncodedTraceRequest): Promise<void> {
    return new Promise<void>((resolve) => {
      let settled = false;
      const settle = (result: ExportResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        if (result.code !== ExportResultCode.SUCCESS) this.reportFailure(result.error ?? new Error(`exporting ${request.spanCount} spans failed`));
        resolve();
      };
      const timeout = setTimeout(() => {
        settle({ code: ExportResultCode.FAILED, error: new Error(`exporting ${request.spanCount} spans took longer than ${this.settings.exportTimeoutMillis} ms`) });
      }, this.settings.exportTimeoutMillis).unref();
      this.sender.send(request, settle);
    });
  }

  private warnOfDroppedSpans(): void {
    if (this.dropped === 0) return;
    diag.warn(`dropped ${this.dropped} spans: more than maxQueueSize (${this.settings.maxQueueSize}) were waiting to be exported`);
    this.dropped = 0;
  }
}
