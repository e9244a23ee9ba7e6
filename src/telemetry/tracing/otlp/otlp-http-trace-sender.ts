import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, type IExportTraceServiceResponse, type ISerializer } from '@opentelemetry/otlp-transformer';
import type { EncodedTraceRequest, TraceRequestSender } from './encoding-span-processor.js';

/** Requests are encoded already; responses are the collector's protobuf answer (partial success). */
const ENCODED_REQUESTS: ISerializer<EncodedTraceRequest, IExportTraceServiceResponse> = {
  serializeRequest: (request) => request.bytes,
  deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
};

/**
 * Sends encoded trace requests to `url` with the SDK's OTLP/HTTP transport, so the standard exporter
 * variables (`OTEL_EXPORTER_OTLP_[TRACES_]HEADERS`, `…_TIMEOUT`, `…_COMPRESSION`, certificates) and its
 * retries on 429/503 apply as they would to the SDK's protobuf exporter.
 */
export function otlpHttpTraceSender(url: string): TraceRequestSender {
  const delegate = createOtlpHttpExportDelegate(
    // The SDK's own OTLP/HTTP exporters configure their transport with this call; it is the one public
    // entry that merges the standard environment variables with the defaults.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    convertLegacyHttpOptions({ url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
    ENCODED_REQUESTS,
    'otlp_http_span_exporter',
    { name: 'span', countItems: (request) => request.spanCount },
    undefined,
  );
  return {
    send: (request, done) => {
      delegate.export(request, done);
    },
    forceFlush: () => delegate.forceFlush(),
    shutdown: () => delegate.shutdown(),
  };
}
