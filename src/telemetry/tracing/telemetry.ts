import { ROOT_CONTEXT, type Context, type Meter, type TextMapGetter, type Tracer } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader, type MetricReader } from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { INSTRUMENTATION_SCOPE } from '../telemetry-names.js';
import { LocalHistograms } from '../metrics/local-histograms.js';
import { CurrentGauges } from '../metrics/current-gauges.js';
import { CurrentSums } from '../metrics/current-sums.js';
import { observeProcessMetrics } from '../metrics/process-metrics.js';
import { exporterTemporality, histogramTemporality } from '../metrics/histogram-temporality.js';
import { DEFAULT_BATCH_SPANS, DEFAULT_METRIC_EXPORT_TIMEOUT_MS, type SamplerName, type TelemetrySettings } from './telemetry-settings.js';
import { SampledLinksSampler } from './sampled-links-sampler.js';
import { otlpSpanExporter } from './otlp/otlp-span-exporter.js';
import { reportingFailures } from './otlp/failure-reporting-exporter.js';
import { W3C_PROPAGATOR, installGlobalPropagator } from './w3c-propagator.js';

/** What tests and embedders may add to a {@link Telemetry}. */
export interface TelemetryExtras {
  /**
   * Span processors besides the configured exporter (tests pass a `SimpleSpanProcessor` over an
   * in-memory exporter). Any processor turns tracing on, whatever the exporter setting.
   */
  readonly spanProcessors?: readonly SpanProcessor[];
  /** Told of every failed OTLP span export (the server logs them, see `exportFailureLog`). */
  readonly reportExportFailure?: (error: Error) => void;
}

/** Settings of a server with tracing and OTLP metrics off: the Prometheus page only. */
export const TELEMETRY_OFF: TelemetrySettings = {
  serviceName: 'sluice',
  tracesExporter: 'none',
  tracesEndpoint: 'http://localhost:4318/v1/traces',
  tracesProtocol: 'http/protobuf',
  batchSpans: DEFAULT_BATCH_SPANS,
  sampler: 'parentbased_always_on',
  samplerArg: 1,
  metricsOtlp: false,
  metricsEndpoint: 'http://localhost:4318/v1/metrics',
  metricExportIntervalMs: 60000,
  metricExportTimeoutMs: DEFAULT_METRIC_EXPORT_TIMEOUT_MS,
  logRequestBodies: false,
};

function samplerFor(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

/**
 * The sampler of `name`, sampling a batch whenever a request it serves is sampled (see
 * {@link SampledLinksSampler}). `always_on` samples every span anyway and stays the SDK's own.
 */
function spanSampler(name: SamplerName, ratio: number): Sampler {
  const sampler = samplerFor(name, ratio);
  return sampler instanceof AlwaysOnSampler ? sampler : new SampledLinksSampler(sampler);
}

/**
 * The SDK's OTLP exporter for the configured protocol and endpoint behind the SDK's batch span processor,
 * with the `OTEL_BSP_*` settings: finished spans wait in its queue (at most `maxQueueSize`, later ones are
 * dropped) and go out a batch at a time.
 */
function otlpProcessorFor(settings: TelemetrySettings, extras: TelemetryExtras): SpanProcessor {
  const exporter = otlpSpanExporter(settings.tracesProtocol, settings.tracesEndpoint);
  const reported: SpanExporter = extras.reportExportFailure === undefined ? exporter : reportingFailures(exporter, extras.reportExportFailure);
  return new BatchSpanProcessor(reported, { ...settings.batchSpans });
}

function spanProcessorsFor(settings: TelemetrySettings, extras: TelemetryExtras): SpanProcessor[] {
  const processors = [...(extras.spanProcessors ?? [])];
  if (settings.tracesExporter === 'otlp') processors.push(otlpProcessorFor(settings, extras));
  if (settings.tracesExporter === 'console') processors.push(new SimpleSpanProcessor(new ConsoleSpanExporter()));
  return processors;
}

/**
 * The tracer and meter of one server, each from its own provider (the SDK's `BasicTracerProvider` and
 * `MeterProvider`, neither registered as the global one), so that several servers in one process (tests,
 * embedders) keep their spans and metrics apart. Trace context is passed explicitly from the
 * request's server span to everything that works for it: no context manager is installed, whether
 * tracing is on or off. With tracing off, {@link tracer} is undefined and instrumented code skips all
 * span work. Metrics always go to a Prometheus reader (the `/metrics` page) and, when
 * configured, to an OTLP exporter.
 */
export class Telemetry {
  /** The tracer, or undefined when tracing is off. */
  readonly tracer: Tracer | undefined;
  readonly meter: Meter;
  /** Histograms recorded outside the SDK (cheaper per value), collected by the same readers as {@link meter}'s instruments. */
  readonly histograms: LocalHistograms;
  /** Gauges read at each collection, reporting only the series their sources give then. */
  readonly gauges: CurrentGauges;
  /** Counters read at each collection, reporting only the series their sources give then. */
  readonly sums: CurrentSums;
  readonly settings: TelemetrySettings;
  private readonly tracerProvider: BasicTracerProvider | undefined;
  private readonly meterProvider: MeterProvider;
  private readonly prometheus: PrometheusExporter;
  private readonly serializer = new PrometheusSerializer(undefined, false, undefined, true, true);
  private stopping: Promise<void> | undefined;
  private processObserved = false;

  constructor(settings: TelemetrySettings = TELEMETRY_OFF, extras: TelemetryExtras = {}) {
    this.settings = settings;
    const resource = resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      ...(settings.serviceVersion !== undefined ? { [ATTR_SERVICE_VERSION]: settings.serviceVersion } : {}),
    });
    const processors = spanProcessorsFor(settings, extras);
    if (processors.length > 0) {
      this.tracerProvider = new BasicTracerProvider({ resource, sampler: spanSampler(settings.sampler, settings.samplerArg), spanProcessors: processors });
      this.tracer = this.tracerProvider.getTracer(INSTRUMENTATION_SCOPE, settings.serviceVersion);
      installGlobalPropagator();
    }
    const scope = { name: INSTRUMENTATION_SCOPE, ...(settings.serviceVersion !== undefined ? { version: settings.serviceVersion } : {}) };
    this.histograms = new LocalHistograms(resource, scope);
    this.gauges = new CurrentGauges(resource, scope);
    this.sums = new CurrentSums(resource, scope);
    this.prometheus = new PrometheusExporter({
      preventServerStart: true,
      withoutScopeInfo: true,
      withoutTargetInfo: true,
      metricProducers: [this.sums, this.gauges, this.histograms],
    });
    const readers: MetricReader[] = [this.prometheus];
    if (settings.metricsOtlp) {
      const exporter = new OTLPMetricExporter({ url: settings.metricsEndpoint });
      readers.push(
        new PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: settings.metricExportIntervalMs,
          // At most the interval (see resolveTelemetrySettings): the reader refuses a longer one given with it.
          exportTimeoutMillis: Math.min(settings.metricExportTimeoutMs, settings.metricExportIntervalMs),
          // Counter and histogram points in the temporality the exporter asks for (OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE).
          metricProducers: [this.sums.producer(exporterTemporality(exporter)), this.gauges, this.histograms.producer(histogramTemporality(exporter))],
        }),
      );
    }
    this.meterProvider = new MeterProvider({ resource, readers });
    this.meter = this.meterProvider.getMeter(INSTRUMENTATION_SCOPE, settings.serviceVersion);
  }

  /**
   * Adds the process's metrics (CPU, memory, heap, event loop; see `observeProcessMetrics`) to this
   * telemetry's readers. Idempotent: servers that share one telemetry report the process once.
   */
  observeProcess(): void {
    if (this.processObserved) return;
    this.processObserved = true;
    observeProcessMetrics(this.meter);
  }

  /** True when spans are recorded. */
  get tracing(): boolean {
    return this.tracer !== undefined;
  }

  /** The context a caller sent (W3C `traceparent`, `tracestate`, `baggage`) read from any carrier. */
  extract<C>(carrier: C, getter: TextMapGetter<C>): Context {
    return W3C_PROPAGATOR.extract(ROOT_CONTEXT, carrier, getter);
  }

  /** Every metric in the Prometheus text format, collected now. */
  async prometheusText(): Promise<string> {
    const { resourceMetrics } = await this.prometheus.collect();
    return this.serializer.serialize(resourceMetrics);
  }

  /**
   * Exports what is buffered (spans, OTLP metrics) now. Resolves once every export has been answered or has
   * failed: a failed span export is the reporter's to hear of (see {@link TelemetryExtras}), not the caller's.
   */
  async forceFlush(): Promise<void> {
    await Promise.all([this.tracerProvider?.forceFlush().catch(ignore), this.meterProvider.forceFlush()]);
  }

  /** Flushes and stops both providers, a failed last span export aside (as {@link forceFlush}). Idempotent. */
  shutdown(): Promise<void> {
    this.stopping ??= Promise.all([this.tracerProvider?.shutdown().catch(ignore), this.meterProvider.shutdown()]).then(() => undefined);
    return this.stopping;
  }
}

function ignore(): void {
  // Failed span exports were reported as they failed.
}
