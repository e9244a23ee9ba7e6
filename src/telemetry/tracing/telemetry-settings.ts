import { SluiceError } from '../../sdk/errors/index.js';
import { MAX_TIMER_DELAY_MS } from '../../timers/long-timeout.js';
import type { TelemetryConfig } from '../../config/sluice-config.js';

/** Where finished spans go: an OTLP/HTTP collector, standard output, or nowhere (tracing off). */
export type TracesExporterName = TelemetryConfig['tracesExporter'];

/** The samplers of the OpenTelemetry specification (`OTEL_TRACES_SAMPLER`). */
export const SAMPLER_NAMES = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** One of {@link SAMPLER_NAMES}. */
export type SamplerName = (typeof SAMPLER_NAMES)[number];

/** How spans travel to an OTLP collector (`OTEL_EXPORTER_OTLP_PROTOCOL`); gRPC is not offered. */
export const TRACES_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

/** One of {@link TRACES_PROTOCOLS}. */
export type TracesProtocol = (typeof TRACES_PROTOCOLS)[number];

/** How finished spans are queued and sent in batches (the standard `OTEL_BSP_*` variables). */
export interface BatchSpanSettings {
  /** Most time between two exports (`OTEL_BSP_SCHEDULE_DELAY`). */
  readonly scheduledDelayMillis: number;
  /** Most time one export may take (`OTEL_BSP_EXPORT_TIMEOUT`). */
  readonly exportTimeoutMillis: number;
  /** Finished spans held at most; spans beyond are dropped (`OTEL_BSP_MAX_QUEUE_SIZE`). */
  readonly maxQueueSize: number;
  /** Spans per export at most; a full batch is sent at once (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`). */
  readonly maxExportBatchSize: number;
}

/**
 * The defaults of the OpenTelemetry specification (and of the SDK's batch span processor): 512 spans per
 * export, 2048 queued. The processor keeps each finished span until its batch is exported, on the
 * JavaScript thread; larger batches keep spans alive through more young-generation collections, which
 * cost the traced server more than the extra exports of smaller ones (docs/observability.md, "Costs").
 */
export const DEFAULT_BATCH_SPANS: BatchSpanSettings = { scheduledDelayMillis: 5000, exportTimeoutMillis: 30000, maxQueueSize: 2048, maxExportBatchSize: 512 };

/** The telemetry settings once the config file and the standard `OTEL_*` variables are combined. */
export interface TelemetrySettings {
  readonly serviceName: string;
  readonly serviceVersion?: string;
  readonly tracesExporter: TracesExporterName;
  /** Full URL spans are posted to (`…/v1/traces`). */
  readonly tracesEndpoint: string;
  /** Protobuf (the default, as the specification asks: smaller and cheaper to encode) or JSON. */
  readonly tracesProtocol: TracesProtocol;
  readonly batchSpans: BatchSpanSettings;
  readonly sampler: SamplerName;
  /** The ratio of the `*traceidratio` samplers (0..1). */
  readonly samplerArg: number;
  /** True to also push metrics over OTLP; `/metrics` is served either way. */
  readonly metricsOtlp: boolean;
  /** Full URL metrics are posted to (`…/v1/metrics`). */
  readonly metricsEndpoint: string;
  readonly metricExportIntervalMs: number;
  /**
   * Most time one OTLP metric push (collection and export) may take (`OTEL_METRIC_EXPORT_TIMEOUT`); never
   * longer than {@link metricExportIntervalMs}.
   */
  readonly metricExportTimeoutMs: number;
  /** Add request bodies to access-log lines (off by default: bodies may hold personal data). */
  readonly logRequestBodies: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

function invalid(variable: string, value: string, allowed: string): SluiceError {
  return new SluiceError('SLUICE_CONFIG_INVALID', `${variable}: ${JSON.stringify(value)} is not allowed; use ${allowed}`, { source: variable });
}

function oneOf<T extends string>(variable: string, raw: string, allowed: readonly T[]): T {
  const value = raw.trim().toLowerCase();
  const found = allowed.find((name) => name === value);
  if (found === undefined) throw invalid(variable, raw, allowed.join(', '));
  return found;
}

function firstListed(raw: string | undefined): string | undefined {
  return raw?.split(',')[0]?.trim() || undefined;
}

function number(variable: string, raw: string, check: (n: number) => boolean, allowed: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || !check(value)) throw invalid(variable, raw, allowed);
  return value;
}

function wholeNumber(env: Env, variable: string, fallback: number): number {
  const raw = env[variable];
  return raw === undefined ? fallback : number(variable, raw, (n) => Number.isSafeInteger(n) && n > 0, 'a whole number above 0');
}

/** What a duration variable allows: Node runs a timer longer than 2^31 - 1 ms after 1 ms, so a longer one would spin. */
const DURATION_ALLOWED = `a whole number of milliseconds from 1 to ${MAX_TIMER_DELAY_MS} (about 24.8 days)`;

function isTimerDelay(n: number): boolean {
  return Number.isInteger(n) && n > 0 && n <= MAX_TIMER_DELAY_MS;
}

/** A duration in milliseconds that a timer will wait: `fallback` when the variable is not set. */
function duration(env: Env, variable: string, fallback: number): number {
  const raw = env[variable];
  return raw === undefined ? fallback : number(variable, raw, isTimerDelay, DURATION_ALLOWED);
}

/**
 * The exporters' own timeouts, which the OTLP exporters read themselves (`OTEL_EXPORTER_OTLP_TIMEOUT` and the
 * per-signal ones; a blank value counts as unset, as they read it): refused here when a timer could not wait
 * them, rather than every export timing out after 1 ms.
 */
function checkExporterTimeouts(env: Env): void {
  for (const variable of ['OTEL_EXPORTER_OTLP_TIMEOUT', 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT']) {
    const raw = env[variable];
    if (raw !== undefined && raw.trim() !== '') number(variable, raw, isTimerDelay, DURATION_ALLOWED);
  }
}

function batchSpans(env: Env): BatchSpanSettings {
  const d = DEFAULT_BATCH_SPANS;
  return {
    scheduledDelayMillis: duration(env, 'OTEL_BSP_SCHEDULE_DELAY', d.scheduledDelayMillis),
    exportTimeoutMillis: duration(env, 'OTEL_BSP_EXPORT_TIMEOUT', d.exportTimeoutMillis),
    maxQueueSize: wholeNumber(env, 'OTEL_BSP_MAX_QUEUE_SIZE', d.maxQueueSize),
    maxExportBatchSize: wholeNumber(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', d.maxExportBatchSize),
  };
}

/** The specification's default of `OTEL_METRIC_EXPORT_TIMEOUT`. */
export const DEFAULT_METRIC_EXPORT_TIMEOUT_MS = 30000;

/**
 * `OTEL_METRIC_EXPORT_TIMEOUT`, cut to the export interval as the OpenTelemetry SDK cuts it: a push that
 * outlasted the interval would only make the next one skip its turn.
 */
function metricExportTimeout(env: Env, intervalMs: number): number {
  return Math.min(duration(env, 'OTEL_METRIC_EXPORT_TIMEOUT', DEFAULT_METRIC_EXPORT_TIMEOUT_MS), intervalMs);
}

function tracesProtocol(env: Env): TracesProtocol {
  const variable = env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] !== undefined ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const raw = env[variable];
  return raw === undefined ? 'http/protobuf' : oneOf(variable, raw, TRACES_PROTOCOLS);
}

function signalUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path}`;
}

/**
 * Combines the `telemetry:` section of the configuration with the standard OpenTelemetry variables,
 * which win when set: `OTEL_SDK_DISABLED`, `OTEL_SERVICE_NAME`, `OTEL_TRACES_EXPORTER`,
 * `OTEL_METRICS_EXPORTER`, `OTEL_EXPORTER_OTLP_ENDPOINT` (and the per-signal `…_TRACES_ENDPOINT` /
 * `…_METRICS_ENDPOINT`, used as they are), `OTEL_EXPORTER_OTLP_PROTOCOL` (or `…_TRACES_PROTOCOL`; spans
 * only), `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`, the `OTEL_BSP_*` batch settings and
 * `OTEL_METRIC_EXPORT_INTERVAL` and `OTEL_METRIC_EXPORT_TIMEOUT` (cut to the interval). Durations (the
 * `OTEL_BSP_*` delay and timeout, the metric export interval and timeout, and the
 * `OTEL_EXPORTER_OTLP_[TRACES_|METRICS_]TIMEOUT` the exporters read) must be whole milliseconds a timer can
 * wait, 1 to 2^31 - 1. Throws `SLUICE_CONFIG_INVALID` naming the variable of a bad value.
 */
export function resolveTelemetrySettings(config: TelemetryConfig, env: Env, serviceVersion?: string): TelemetrySettings {
  checkExporterTimeouts(env);
  const disabled = env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true';
  const tracesRaw = firstListed(env['OTEL_TRACES_EXPORTER']);
  const metricsRaw = firstListed(env['OTEL_METRICS_EXPORTER']);
  const samplerRaw = env['OTEL_TRACES_SAMPLER'];
  const samplerArgRaw = env['OTEL_TRACES_SAMPLER_ARG'];
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || config.otlpEndpoint;
  const tracesExporter = tracesRaw === undefined ? config.tracesExporter : oneOf('OTEL_TRACES_EXPORTER', tracesRaw, ['otlp', 'console', 'none']);
  // `prometheus` is accepted because the Prometheus page is always served.
  const metricsExporter =
    metricsRaw === undefined ? config.metricsExporter : oneOf('OTEL_METRICS_EXPORTER', metricsRaw, ['otlp', 'prometheus', 'none']);
  const metricExportIntervalMs = duration(env, 'OTEL_METRIC_EXPORT_INTERVAL', config.metricExportIntervalMs);
  return {
    serviceName: env['OTEL_SERVICE_NAME']?.trim() || config.serviceName,
    ...(serviceVersion !== undefined ? { serviceVersion } : {}),
    tracesExporter: disabled ? 'none' : tracesExporter,
    tracesEndpoint: env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim() || signalUrl(base, 'v1/traces'),
    tracesProtocol: tracesProtocol(env),
    batchSpans: batchSpans(env),
    sampler: samplerRaw === undefined ? config.sampler : oneOf('OTEL_TRACES_SAMPLER', samplerRaw, SAMPLER_NAMES),
    samplerArg:
      samplerArgRaw === undefined ? config.samplerArg : number('OTEL_TRACES_SAMPLER_ARG', samplerArgRaw, (n) => n >= 0 && n <= 1, 'a ratio from 0 to 1'),
    metricsOtlp: !disabled && metricsExporter === 'otlp',
    metricsEndpoint: env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']?.trim() || signalUrl(base, 'v1/metrics'),
    metricExportIntervalMs,
    metricExportTimeoutMs: metricExportTimeout(env, metricExportIntervalMs),
    logRequestBodies: config.logRequestBodies,
  };
}
