export { ATTR, INSTRUMENTATION_SCOPE, REQUEST_ID_HEADER, SPAN } from './telemetry-names.js';
export { Telemetry, TELEMETRY_OFF, type TelemetryExtras } from './tracing/telemetry.js';
export { resolveTelemetrySettings, type TelemetrySettings } from './tracing/telemetry-settings.js';
export { installGlobalContext } from './tracing/global-context.js';
export { activeTracer, contextWithTracer } from './tracing/active-tracer.js';
export { requestTracer } from './tracing/request-tracer.js';
export { annotateActiveSpan, recordActiveFailure, recordFailure, withChildSpan } from './tracing/span-helpers.js';
export { endRpcServerSpan, startRpcServerSpan, startServerSpan, type RpcCall, type ServerSpan } from './tracing/server-span.js';
