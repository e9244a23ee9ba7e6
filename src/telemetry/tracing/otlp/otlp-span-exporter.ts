import { OTLPTraceExporter as OTLPJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { TracesProtocol } from '../telemetry-settings.js';

/**
 * The SDK's OTLP/HTTP span exporter for `protocol`, posting to `url`: protobuf (the default) or JSON.
 * The exporters read the rest of their settings from the standard variables themselves:
 * `OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`, `…_TIMEOUT`, `…_COMPRESSION` and the certificate variables; and
 * they retry a collector that answers 429, 502, 503 or 504, or cannot be reached, until that timeout.
 */
export function otlpSpanExporter(protocol: TracesProtocol, url: string): SpanExporter {
  return protocol === 'http/json' ? new OTLPJsonTraceExporter({ url }) : new OTLPProtobufTraceExporter({ url });
}
