import type { Counter, ObservableResult } from '@opentelemetry/api';
import { Telemetry } from '../tracing/telemetry.js';
import type { HistogramSeries } from './histogram-series.js';
import type { LocalHistogram } from './local-histograms.js';
import { metricsNamed } from './prometheus-name-filter.js';
import type { BatchObservation, InferenceObservation, InstanceUtilization, ServingMetrics, WorkflowNodeObservation } from './serving-metrics.js';

/** Content type of the `/metrics` page (Prometheus text exposition format 0.0.4). */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Batch sizes: powers of two up to 1024. */
const BATCH_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** Latency buckets in seconds: 100 µs to 60 s, roughly ×2.5 apart. */
const LATENCY_BUCKETS_S = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * TorchServe's two cumulative-latency counters predate Prometheus's `_total` rule, which the exporter
 * applies to every counter; dashboards know them without it.
 */
const TORCHSERVE_COUNTER_NAMES = /^(# (?:HELP|TYPE|UNIT) )?(ts_(?:inference|queue)_latency_microseconds)_total\b/gm;

/** One model version's running totals of the per-request counters, and its series of the per-request and per-batch histograms. */
interface RequestTotals {
  readonly labels: { readonly model_name: string; readonly model_version: string };
  requests: number;
  latencyUs: number;
  queueUs: number;
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
   * The per-request counters (requests, cumulative latency and queue time) are summed here and read when
   * metrics are collected, and the per-request and per-batch histograms are local ones whose series each
   * model version keeps: recording into an SDK instrument hashes its attributes on every call, which
   * cost each request more than the recording itself.
   */
  private readonly totals = new Map<string, Map<string, RequestTotals>>();
  private readonly failures: Counter;
  private readonly errors: Counter;
  private readonly latency: LocalHistogram;
  private readonly queueTime: LocalHistogram;
  private readonly batchSize: LocalHistogram;
  private readonly compute: LocalHistogram;
  private readonly nodeLatency: LocalHistogram;
  private utilization: () => readonly InstanceUtilization[] = () => [];

  constructor(private readonly telemetry: Telemetry = new Telemetry()) {
    const m = telemetry.meter;
    const seconds = (name: string, description: string): LocalHistogram =>
      telemetry.histograms.define({ name, description, unit: 's', boundaries: LATENCY_BUCKETS_S });
    const observeTotals = (read: (t: RequestTotals) => number) => (result: ObservableResult) => {
      // A version seen only through its batches has no request counters yet.
      for (const versions of this.totals.values()) for (const t of versions.values()) if (t.requests > 0) result.observe(read(t), t.labels);
    };
    m.createObservableCounter('ts_inference_requests_total', { description: 'Inference requests received per model.' }).addCallback(
      observeTotals((t) => t.requests),
    );
    m.createObservableCounter('ts_inference_latency_microseconds', {
      description: 'Cumulative inference latency per model, in microseconds.',
      unit: 'us',
    }).addCallback(observeTotals((t) => t.latencyUs));
    m.createObservableCounter('ts_queue_latency_microseconds', {
      description: 'Cumulative time requests spent queued per model, in microseconds.',
      unit: 'us',
    }).addCallback(observeTotals((t) => t.queueUs));
    this.failures = m.createCounter('sluice_inference_failures_total', { description: 'Inference requests that ended in an error, per model.' });
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
  }

  batchCompleted(o: BatchObservation): void {
    const totals = this.totalsOf(o.model, o.version);
    totals.batchSize.record(o.size);
    totals.compute.record(o.computeUs / 1e6);
  }

  watchUtilization(source: () => readonly InstanceUtilization[]): void {
    this.utilization = source;
  }

  inferenceCompleted(o: InferenceObservation): void {
    const totals = this.totalsOf(o.model, o.version);
    totals.requests += 1;
    totals.latencyUs += Math.round(o.latencyUs);
    totals.queueUs += Math.round(o.queueUs);
    totals.latency.record(o.latencyUs / 1e6);
    totals.queueTime.record(o.queueUs / 1e6);
    if (!o.ok) this.failures.add(1, totals.labels);
  }

  private totalsOf(model: string, version: string): RequestTotals {
    let versions = this.totals.get(model);
    if (versions === undefined) this.totals.set(model, (versions = new Map<string, RequestTotals>()));
    let totals = versions.get(version);
    if (totals === undefined) {
      const labels = { model_name: model, model_version: version };
      totals = {
        labels,
        requests: 0,
        latencyUs: 0,
        queueUs: 0,
        latency: this.latency.series(labels),
        queueTime: this.queueTime.series(labels),
        batchSize: this.batchSize.series(labels),
        compute: this.compute.series(labels),
      };
      versions.set(version, totals);
    }
    return totals;
  }

  workflowNodeCompleted(o: WorkflowNodeObservation): void {
    this.nodeLatency.record(o.latencyUs / 1e6, { workflow: o.workflow, node: o.node, status: o.status });
  }

  errorAnswered(code: string, transport: string): void {
    this.errors.add(1, { code, transport });
  }

  async scrape(names?: ReadonlySet<string>): Promise<{ contentType: string; body: string }> {
    const text = (await this.telemetry.prometheusText()).replace(TORCHSERVE_COUNTER_NAMES, '$1$2');
    const page = text.endsWith('\n') ? text : `${text}\n`;
    return { contentType: PROMETHEUS_CONTENT_TYPE, body: names === undefined ? page : metricsNamed(page, names) };
  }
}
