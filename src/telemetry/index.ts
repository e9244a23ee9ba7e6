export { ATTR, INSTRUMENTATION_SCOPE, REQUEST_ID_HEADER, SPAN } from './telemetry-names.js';
export { Telemetry, TELEMETRY_OFF, type TelemetryExtras } from './tracing/telemetry.js';
export { resolveTelemetrySettings, type TelemetrySettings } from './tracing/telemetry-settings.js';
export { W3C_PROPAGATOR, traceHeaders } from './tracing/w3c-propagator.js';
export { contextWithTracer, recordingSpanOf, tracerOf } from './tracing/trace-context.js';
export { requestTracer, tracerFor } from './tracing/request-tracer.js';
export { annotateModel, recordFailure, withChildSpan } from './tracing/span-helpers.js';
export { loggerWithTrace, traceLogFields } from './logging/trace-log-fields.js';
export { endRpcServerSpan, startRpcServerSpan, startServerSpan, type RpcCall, type ServerSpan } from './tracing/server-span.js';
