import { afterEach, describe, expect, it } from '@jest/globals';
import { diag, DiagLogLevel, type DiagLogger, type Tracer } from '@opentelemetry/api';
import { ExportResultCode, loggingErrorHandler, setGlobalErrorHandler, type ExportResult } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor, type ReadableSpan, type Sampler } from '@opentelemetry/sdk-trace-base';
import { EncodingSpanProcessor, type EncodedTraceRequest, type TraceRequestSender } from '../../../../../src/telemetry/tracing/otlp/encoding-span-processor.js';
import type { BatchSpanSettings } from '../../../../../src/telemetry/tracing/telemetry-settings.js';
import { decodeOtlpTraces } from '../../../../support/telemetry/otlp-protobuf.js';

/** Long enough that a batch is never sent, nor an export failed, by its timer during a test that does not wait for it. */
const NEVER = 600_000;

/** A sender that records each request and acknowledges it at once or when the test says so. */
class RecordingSender implements TraceRequestSender {
  readonly requests: EncodedTraceRequest[] = [];
  forceFlushes = 0;
  shutdowns = 0;
  private readonly unacknowledged: ((result: ExportResult) => void)[] = [];
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly answer: 'at once' | 'when told' | ExportResult = 'at once') {}

  send(request: EncodedTraceRequest, done: (result: ExportResult) => void): void {
    // The bytes are the processor's until send returns.
    this.requests.push({ bytes: request.bytes.slice(), spanCount: request.spanCount });
    for (const wake of this.waiting.splice(0)) wake();
    if (this.answer === 'at once') done({ code: ExportResultCode.SUCCESS });
    else if (this.answer === 'when told') this.unacknowledged.push(done);
    else done(this.answer);
  }

  /** Acknowledges the oldest request not acknowledged yet, and lets the processor take note. */
  async acknowledge(): Promise<void> {
    const done = this.unacknowledged.shift();
    if (done === undefined) throw new Error('no request waits for an acknowledgement');
    done({ code: ExportResultCode.SUCCESS });
    await settled();
  }

  /** Resolves once `count` requests were sent. */
  async sent(count: number): Promise<void> {
    while (this.requests.length < count) await new Promise<void>((wake) => this.waiting.push(wake));
  }

  forceFlush(): Promise<void> {
    this.forceFlushes++;
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.shutdowns++;
    return Promise.resolve();
  }
}

/** Lets promise callbacks queued so far run. */
function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A tracer whose spans end into `processor`. */
function tracerInto(processor: EncodingSpanProcessor, sampler?: Sampler): Tracer {
  return new BasicTracerProvider({ sampler, spanProcessors: [processor] }).getTracer('sluice.test');
}

function batchSettings(settings: Partial<BatchSpanSettings>): BatchSpanSettings {
  return { scheduledDelayMillis: NEVER, exportTimeoutMillis: NEVER, maxQueueSize: 100, maxExportBatchSize: 100, ...settings };
}

function endSpans(tracer: Tracer, ...names: string[]): void {
  for (const name of names) tracer.startSpan(name).end();
}

interface DecodedRequest {
  resourceSpans: { scopeSpans: { spans: { name?: string }[] }[] }[];
}

/** The names of the spans in `request`, in the order they were encoded. */
function spanNames(request: EncodedTraceRequest | undefined): (string | undefined)[] {
  if (request === undefined) return [];
  const decoded = decodeOtlpTraces(request.bytes) as DecodedRequest;
  return decoded.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name)));
}

/** Samples spans whose name starts with `unsampled` as recorded but not sampled, the others as sampled. */
const recordOnlyUnsampled: Sampler = {
  shouldSample: (_context, _traceId, name) => ({ decision: name.startsWith('unsampled') ? SamplingDecision.RECORD : SamplingDecision.RECORD_AND_SAMPLED }),
  toString: () => 'RecordOnlyUnsampled',
};

describe('EncodingSpanProcessor', () => {
  afterEach(() => {
    setGlobalErrorHandler(loggingErrorHandler());
    diag.disable();
  });

  it('sends a full batch at once, with the batch’s spans', () => {
    const sender = new RecordingSender();
    const tracer = tracerInto(new EncodingSpanProcessor(sender, batchSettings({ maxExportBatchSize: 3 })));
    endSpans(tracer, 'a', 'b');
    expect(sender.requests).toHaveLength(0);
    endSpans(tracer, 'c');
    expect(sender.requests.map((r) => r.spanCount)).toEqual([3]);
    expect(spanNames(sender.requests[0])).toEqual(['a', 'b', 'c']);
  });

  it('sends the bytes the SDK’s serializer writes for the same spans', () => {
    const sender = new RecordingSender();
    const processor = new EncodingSpanProcessor(sender, batchSettings({ maxExportBatchSize: 4 }));
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(exporter)] });
    const http = provider.getTracer('sluice.http');
    const batching = provider.getTracer('sluice.batching', '1.0.0');
    endSpans(batching, 'batch.execute');
    endSpans(http, 'POST /predictions/:model');
    endSpans(batching, 'batch.execute');
    endSpans(http, 'GET /models');
    expect(sender.requests).toHaveLength(1);
    expect(Buffer.from(sender.requests[0]!.bytes)).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!));
  });

  it('groups a batch’s spans like the SDK’s serializer when scopes first appeared in an earlier batch in another order', () => {
    const sender = new RecordingSender();
    const processor = new EncodingSpanProcessor(sender, batchSettings({ maxExportBatchSize: 2 }));
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(exporter)] });
    const http = provider.getTracer('sluice.http');
    const batching = provider.getTracer('sluice.batching');
    endSpans(http, 'first');
    endSpans(batching, 'second');
    endSpans(batching, 'third');
    endSpans(http, 'fourth');
    const secondBatch: ReadableSpan[] = exporter.getFinishedSpans().slice(2);
    expect(sender.requests).toHaveLength(2);
    expect(Buffer.from(sender.requests[1]!.bytes)).toEqual(Buffer.from(ProtobufTraceSerializer.serializeRequest(secondBatch)!));
  });

  it('sends a partial batch scheduledDelayMillis after its first span', async () => {
    const sender = new RecordingSender();
    const tracer = tracerInto(new EncodingSpanProcessor(sender, batchSettings({ scheduledDelayMillis: 20 })));
    endSpans(tracer, 'a', 'b');
    expect(sender.requests).toHaveLength(0);
    await sender.sent(1);
    expect(sender.requests.map((r) => r.spanCount)).toEqual([2]);
    expect(spanNames(sender.requests[0])).toEqual(['a', 'b']);
  });

  it('does not send spans that are recorded but not sampled', async () => {
    const sender = new RecordingSender();
    const processor = new EncodingSpanProcessor(sender, batchSettings({}));
    endSpans(tracerInto(processor, recordOnlyUnsampled), 'unsampled-1', 'sampled', 'unsampled-2');
    await processor.forceFlush();
    expect(sender.requests.map((r) => r.spanCount)).toEqual([1]);
    expect(spanNames(sender.requests[0])).toEqual(['sampled']);
  });

  it('sends nothing when every span ended is unsampled', async () => {
    const sender = new RecordingSender();
    const processor = new EncodingSpanProcessor(sender, batchSettings({ maxExportBatchSize: 1 }));
    endSpans(tracerInto(processor, recordOnlyUnsampled), 'unsampled-1', 'unsampled-2');
    await processor.forceFlush();
    expect(sender.requests).toHaveLength(0);
  });

  it('drops spans beyond maxQueueSize while exports are not acknowledged, and takes spans again once they are', async () => {
    const sender = new RecordingSender('when told');
    const tracer = tracerInto(new EncodingSpanProcessor(sender, batchSettings({ maxQueueSize: 4, maxExportBatchSize: 2 })));
    endSpans(tracer, 's1', 's2', 's3', 's4', 'dropped-1', 'dropped-2');
    expect(sender.requests.map(spanNames)).toEqual([
      ['s1', 's2'],
      ['s3', 's4'],
    ]);
    await sender.acknowledge();
    endSpans(tracer, 's5', 's6');
    expect(sender.requests.map(spanNames)).toEqual([
      ['s1', 's2'],
      ['s3', 's4'],
      ['s5', 's6'],
    ]);
  });

  it('counts spans encoded but not yet sent towards maxQueueSize', async () => {
    const sender = new RecordingSender();
    const processor = new EncodingSpanProcessor(sender, batchSettings({ maxQueueSize: 2 }));
    endSpans(tracerInto(processor), 's1', 's2', 'dropped');
    await processor.forceFlush();
    expect(sender.requests.map(spanNames)).toEqual([['s1', 's2']]);
  });

  it('warns of the spans it dropped with the next export', async () => {
    const warnings: string[] = [];
    const logger: DiagLogger = { error: () => undefined, warn: (message) => warnings.push(message), info: () => undefined, debug: () => undefined, verbose: () => undefined };
    diag.setLogger(logger, DiagLogLevel.WARN);
    const sender = new RecordingSender('when told');
    const tracer = tracerInto(new EncodingSpanProcessor(sender, batchSettings({ maxQueueSize: 2, maxExportBatchSize: 2 })));
    endSpans(tracer, 's1', 's2', 'dropped-1', 'dropped-2', 'dropped-3');
    expect(warnings).toEqual([]);
    await sender.acknowledge();
    endSpans(tracer, 's3', 's4');
    expect(warnings).toEqual([expect.stringContaining('dropped 3 spans')]);
  });

  it('sends a partial batch on forceFlush and resolves only once the sender acknowledges it', async () => {
    const sender = new RecordingSender('when told');
    const processor = new EncodingSpanProcessor(sender, batchSettings({}));
    endSpans(tracerInto(processor), 'a');
    let flushed = false;
    const flush = processor.forceFlush().then(() => {
      flushed = true;
    });
    expect(sender.requests.map(spanNames)).toEqual([['a']]);
    await settled();
    expect(flushed).toBe(false);
    await sender.acknowledge();
    await flush;
    expect(flushed).toBe(true);
    expect(sender.forceFlushes).toBe(1);
  });

  it('sends what is encoded on shutdown and shuts the sender down', async () => {
    const sender = new RecordingSender();
    const processor = new EncodingSpanProcessor(sender, batchSettings({}));
    endSpans(tracerInto(processor), 'a');
    await processor.shutdown();
    expect(sender.requests.map(spanNames)).toEqual([['a']]);
    expect(sender.shutdowns).toBe(1);
  });

  it('ignores spans that end after shutdown', async () => {
    const sender = new RecordingSender();
    const processor = new EncodingSpanProcessor(sender, batchSettings({ maxExportBatchSize: 1 }));
    const tracer = tracerInto(processor);
    await processor.shutdown();
    endSpans(tracer, 'late');
    await processor.forceFlush();
    expect(sender.requests).toHaveLength(0);
  });

  it('fails an export not acknowledged within exportTimeoutMillis through the global error handler', async () => {
    const reported = new Promise<unknown>((resolve) => {
      setGlobalErrorHandler(resolve);
    });
    const sender = new RecordingSender('when told');
    endSpans(tracerInto(new EncodingSpanProcessor(sender, batchSettings({ maxExportBatchSize: 1, exportTimeoutMillis: 20 }))), 'a');
    expect(await reported).toEqual(expect.objectContaining({ message: expect.stringContaining('took longer than 20 ms') }));
  });

  it('keeps exporting after an export timed out, its spans no longer counted as waiting', async () => {
    const timedOut = new Promise<void>((resolve) => {
      setGlobalErrorHandler(() => {
        resolve();
      });
    });
    const sender = new RecordingSender('when told');
    const tracer = tracerInto(new EncodingSpanProcessor(sender, batchSettings({ maxQueueSize: 1, maxExportBatchSize: 1, exportTimeoutMillis: 20 })));
    endSpans(tracer, 'timed-out');
    await timedOut;
    await settled();
    endSpans(tracer, 'after');
    expect(sender.requests.map(spanNames)).toEqual([['timed-out'], ['after']]);
  });

  it('reports an export the sender fails through the global error handler', async () => {
    const reported = new Promise<unknown>((resolve) => {
      setGlobalErrorHandler(resolve);
    });
    const failure = new Error('collector answered 400');
    const sender = new RecordingSender({ code: ExportResultCode.FAILED, error: failure });
    endSpans(tracerInto(new EncodingSpanProcessor(sender, batchSettings({ maxExportBatchSize: 1 }))), 'a');
    expect(await reported).toBe(failure);
  });
});
