import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * `exporter`, telling `report` of every export that fails (a refusal, a collector that cannot be reached
 * or does not answer within the exporter's timeout), with the exporter's error. The SDK's batch processor
 * hands such failures to the process-wide OpenTelemetry error handler only; each Sluice server reports
 * its own, naming its endpoint (see `exportFailureLog`).
 */
export function reportingFailures(exporter: SpanExporter, report: (error: Error) => void): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) report(result.error ?? new Error(`exporting ${spans.length} spans failed`));
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
