import type { Counter, HrTime } from '@opentelemetry/api';
import { InstrumentType } from '@opentelemetry/sdk-metrics';
import { Telemetry } from '../tracing/telemetry.js';
import type { SumReading } from './current-sums.js';
import type { HistogramSeries } from './histogram-series.js';
import { nowHrTime } from './hr-now.js';
import type { LocalHistogram } from './local-histograms.js';
import { metricsNamed } from './prometheus-name-filter.js';
import type { BatchObservation, InferenceObservation, InstanceUtilization, ServingMetrics, VersionLoad, WorkflowNodeObservation } from './serving-metrics.js';
import { TORCHSERVE_HOST_COUNTERS, TorchServeHostMetrics } from './torchserve-host-metrics.js';

/** Content type of the `/metrics` page (Prometheus text exposition format 0.0.4). */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Batch sizes: powers of two up to 1024. */
const BATCH_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** Latency buckets in seconds: 100 µs to 60 s, roughly ×2.5 apart. */
const LATENCY_BUCKETS_S = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * TorchServe's two cumulative-latency counters and its answer counters predate Prometheus's `_total`
 * rule, which the exporter applies to every counter; dashboards know them without it.
 */
const TORCHSERVE_COUNTER_NAMES = new RegExp(
  `^(# (?:HELP|TYPE|UNIT) )?(ts_(?:inference|queue)_latency_microseconds|${TORCHSERVE_HOST_COUNTERS.join('|')})_total\\b`,
  'gm',
);

/** One model version's running totals of the per-request counters, and its series of the per-request and per-batch histograms. */
interface RequestTotals {
  readonly labels: { readonly model_name: string; readonly model_version: string };
  /** When the version was registered: the start of its running totals. */
  readonly since: HrTime;
  requests: number;
  latencyUs: number;
  queueUs: number;
  failures: number;
  readonly latency: HistogramSeries;
  readonly queueTime: HistogramSeries;
  readonly batchSize: HistogramSeries;
  readonly compute: HistogramSeries;
}

/**
 * {@link ServingMetrics} through the OpenTelemetry metrics API, read by the Prometheus exporter of the
 * server's {@link Telemetry} (and pushed over OTLP when configured). Keeps TorchServe's metric names so
 * existing dashboards work, plus latency, batch and error histograms and counters.
 */
export class PrometheusServingMetrics implements ServingMetrics {
  /**
   * The per-request counters (requests, failures, cumulative latency and queue time) are summed here and
   * read when metrics are collected, and the per-request and per-batch histograms are local ones whose
   * series each model version keeps: recording into an SDK instrument hashes its attributes on every
   * call, which cost each request more than the recording itself. A version's entry lives from
   * {@link versionAdded} to {@link versionRemoved}, so its series leave the page with it.
   */
  private readonly totals = new Map<string, Map<string, RequestTotals>>();
  private readonly errors: Counter;
  private readonly latency: LocalHistogram;
  private readonly queueTime: LocalHistogram;
  private readonly batchSize: LocalHistogram;
  private readonly compute: LocalHistogram;
  private readonly nodeLatency: LocalHistogram;
  private utilization: () => readonly InstanceUtilization[] = () => [];
  private readonly torchserve: TorchServeHostMetrics | undefined;
  private load: () => readonly VersionLoad[] = () => [];

  /**
   * `options.torchserveHostMetrics`: also serve TorchServe's frontend and system metrics
   * ({@link TorchServeHostMetrics}); a server does, and a page that must not change between scrapes
   * leaves them out.
   */
  constructor(
    private readonly telemetry: Telemetry = new Telemetry(),
    options: { readonly torchserveHostMetrics?: boolean } = {},
  ) {
    this.torchserve = options.torchserveHostMetrics === true ? new TorchServeHostMetrics(telemetry, () => this.utilization()) : undefined;
    const m = telemetry.meter;
    const seconds = (name: string, description: string): LocalHistogram =>
      telemetry.histograms.define({ name, description, unit: 's', boundaries: LATENCY_BUCKETS_S });
    const counter = (
      name: string,
      description: string,
      read: (t: RequestTotals) => number,
      unit?: string,
      instrument: InstrumentType.COUNTER | InstrumentType.OBSERVABLE_COUNTER = InstrumentType.OBSERVABLE_COUNTER,
    ): void => {
      telemetry.sums.define({ name, description, ...(unit !== undefined ? { unit } : {}), instrument }, () => {
        const readings: SumReading[] = [];
        // A series appears once it has counted something: a version seen only through its batches has no request counters yet.
        for (const versions of this.totals.values()) for (const t of versions.values()) {
          const value = read(t);
          if (value > 0) readings.push({ value, attributes: t.labels, startTime: t.since });
        }
        return readings;
      });
    };
    counter('ts_inference_requests_total', 'Inference requests received per model.', (t) => t.requests);
    counter('ts_inference_latency_microseconds', 'Cumulative inference latency per model, in microseconds.', (t) => t.latencyUs, 'us');
    counter('ts_queue_latency_microseconds', 'Cumulative time requests spent queued per model, in microseconds.', (t) => t.queueUs, 'us');
    // Counted as the SDK counter it was (its OTLP temporality follows the exporter's preference for counters).
    counter('sluice_inference_failures_total', 'Inference requests that ended in an error, per model.', (t) => t.failures, undefined, InstrumentType.COUNTER);
    this.errors = m.createCounter('sluice_errors_total', { description: 'Error answers per Sluice error code and transport.' });
    this.latency = seconds('sluice_inference_request_duration_seconds', 'Inference request latency per model, in seconds.');
    this.queueTime = seconds('sluice_queue_duration_seconds', 'Time requests spent queued per model, in seconds.');
    this.batchSize = telemetry.histograms.define({ name: 'sluice_batch_size', description: 'Requests per batch run, per model.', boundaries: BATCH_SIZE_BUCKETS });
    this.compute = seconds('sluice_inference_compute_duration_seconds', 'Time one batch run took on its instance, per model, in seconds.');
    this.nodeLatency = seconds('sluice_workflow_node_duration_seconds', 'Time each workflow node took, per workflow, node and outcome, in seconds.');
    // Not an SDK observable gauge: that keeps reporting instances that are gone (see CurrentGauges).
    telemetry.gauges.define({ name: 'sluice_instance_utilization_ratio', description: 'Fraction of the last look each instance spent running batches.' }, () =>
      this.utilization().map((u) => ({ value: u.utilization, attributes: { model_name: u.model, model_version: u.version, instance: u.instance } })),
    );
    // What an autoscaler scales replicas on: read from the registered versions at each collection, so a version's series leave with it.
    telemetry.gauges.define({ name: 'sluice_queue_length', description: 'Requests waiting in each model version\'s queue for an instance.' }, () =>
      this.load().map((l) => ({ value: l.queued, attributes: { model_name: l.model, model_version: l.version } })),
    );
    telemetry.gauges.define({ name: 'sluice_inflight_requests', description: 'Requests each model version has taken and not yet answered: in its handler, queued or running.' }, () =>
      this.load().map((l) => ({ value: l.inFlight, attributes: { model_name: l.model, model_version: l.version } })),
    );
  }

  batchCompleted(o: BatchObservation): void {
    const totals = this.totals.get(o.model)?.get(o.version);
    // A version no longer registered (a batch that ended as it was unregistered) has no series to count in.
    if (totals === undefined) return;
    totals.batchSize.record(o.size);
    totals.compute.record(o.computeUs / 1e6);
  }

  watchUtilization(source: () => readonly InstanceUtilization[]): void {
    this.utilization = source;
  }

  watchLoad(source: () => readonly VersionLoad[]): void {
    this.load = source;
  }

  inferenceCompleted(o: InferenceObservation): void {
    const totals = this.totals.get(o.model)?.get(o.version);
    if (totals !== undefined) this.torchserve?.requestServed(o.latencyUs, o.queueUs);
    // A request that ended as its version was unregistered: the version's series are gone with it.
    if (totals === undefined) return;
    totals.requests += 1;
    totals.latencyUs += Math.round(o.latencyUs);
    totals.latency.record(o.latencyUs / 1e6);
    // A request that failed before it ran has no queue time: a zero would pull the histogram down.
    if (o.queueUs !== undefined) {
      totals.queueUs += Math.round(o.queueUs);
      totals.queueTime.record(o.queueUs / 1e6);
    }
    if (!o.ok) totals.failures += 1;
  }

  versionAdded(model: string, version: string): void {
    let versions = this.totals.get(model);
    if (versions === undefined) this.totals.set(model, (versions = new Map<string, RequestTotals>()));
    if (versions.has(version)) return;
    const labels = { model_name: model, model_version: version };
    versions.set(version, {
      labels,
      since: nowHrTime(),
      requests: 0,
      latencyUs: 0,
      queueUs: 0,
      failures: 0,
      latency: this.latency.series(labels),
      queueTime: this.queueTime.series(labels),
      batchSize: this.batchSize.series(labels),
      compute: this.compute.series(labels),
    });
  }

  versionRemoved(model: string, version: string): void {
    const versions = this.totals.get(model);
    const totals = versions?.get(version);
    if (versions === undefined || totals === undefined) return;
    versions.delete(version);
    if (versions.size === 0) this.totals.delete(model);
    for (const histogram of [this.latency, this.queueTime, this.batchSize, this.compute]) histogram.forget(totals.labels);
  }

  workflowNodeCompleted(o: WorkflowNodeObservation): void {
    this.nodeLatency.record(o.latencyUs / 1e6, { workflow: o.workflow, node: o.node, status: o.status });
  }

  errorAnswered(code: string, transport: string): void {
    this.errors.add(1, { code, transport });
  }

  httpAnswered(status: number): void {
    this.torchserve?.httpAnswered(status);
  }

  async scrape(names?: ReadonlySet<string>): Promise<{ contentType: string; body: string }> {
    await this.torchserve?.refreshGpus();
    const text = (await this.telemetry.prometheusText()).replace(TORCHSERVE_COUNTER_NAMES, '$1$2');
    const page = text.endsWith('\n') ? text : `${text}\n`;
    return { contentType: PROMETHEUS_CONTENT_TYPE, body: names === undefined ? page : metricsNamed(page, names) };
  }
}
