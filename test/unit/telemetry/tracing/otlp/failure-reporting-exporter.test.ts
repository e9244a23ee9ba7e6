import { describe, expect, it } from '@jest/globals';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { reportingFailures } from '../../../../../src/telemetry/tracing/otlp/failure-reporting-exporter.js';

/** An exporter that answers every export with `result` and counts its other calls. */
class AnsweringExporter implements SpanExporter {
  shutdowns = 0;
  flushes = 0;

  constructor(private readonly result: ExportResult) {}

  export(_spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    done(this.result);
  }

  shutdown(): Promise<void> {
    this.shutdowns++;
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    this.flushes++;
    return Promise.resolve();
  }
}

/** Exports no spans through `exporter`; resolves with what it answered. */
function exportThrough(exporter: SpanExporter, spans: ReadableSpan[] = []): Promise<ExportResult> {
  return new Promise((resolve) => {
    exporter.export(spans, resolve);
  });
}

describe('reportingFailures', () => {
  it('passes a successful export on and reports nothing', async () => {
    const reported: Error[] = [];
    const result = await exportThrough(reportingFailures(new AnsweringExporter({ code: ExportResultCode.SUCCESS }), (e) => reported.push(e)));
    expect([result, reported]).toEqual([{ code: ExportResultCode.SUCCESS }, []]);
  });

  it('reports a failed export’s error and passes the failure on', async () => {
    const reported: Error[] = [];
    const error = new Error('collector answered 400');
    const result = await exportThrough(reportingFailures(new AnsweringExporter({ code: ExportResultCode.FAILED, error }), (e) => reported.push(e)));
    expect(result).toEqual({ code: ExportResultCode.FAILED, error });
    expect(reported).toEqual([error]);
  });

  it('reports a failure without an error as the failed export of its spans', async () => {
    const reported: Error[] = [];
    const spans = [{}, {}] as ReadableSpan[];
    await exportThrough(reportingFailures(new AnsweringExporter({ code: ExportResultCode.FAILED }), (e) => reported.push(e)), spans);
    expect(reported.map((e) => e.message)).toEqual(['exporting 2 spans failed']);
  });

  it('flushes and shuts down the exporter it wraps', async () => {
    const inner = new AnsweringExporter({ code: ExportResultCode.SUCCESS });
    const exporter = reportingFailures(inner, () => undefined);
    await exporter.forceFlush?.();
    await exporter.shutdown();
    expect([inner.flushes, inner.shutdowns]).toEqual([1, 1]);
  });
});
