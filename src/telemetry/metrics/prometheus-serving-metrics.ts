import type { Counter, Histogram, ObservableResult } from '@opentelemetry/api';
import { Telemetry } from '../tracing/telemetry.js';
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

/** One model version's running totals of the per-request counters. */
interface RequestTotals {
  readonly labels: { readonly model_name: string; readonly model_version: string };
  requests: number;
  latencyUs: number;
  queueUs: number;
}

/**
 * {@link ServingMetrics} through the OpenTelemetry metrics API, read by the Prometheus exporter of the
 * server's {@link Telemetry} (and pushed over OTLP when configured). Keeps TorchServe's metric names so
 * existing dashboards work, plus latency, batch and error histograms and counters.
 */
export class PrometheusServingMetrics implements ServingMetrics {
  /**
   * The per-request counters (requests, cumulative latency and queue time) are summed here and read when
   * metrics are collected: recording into a counter hashes its attributes on every call, which cost
   * each request more than the sum.
   */
  private readonly totals = new Map<string, Map<string, RequestTotals>>();
  private readonly failures: Counter;
  private readonly errors: Counter;
  private readonly latency: Histogram;
  private readonly queueTime: Histogram;
  private readonly batchSize: Histogram;
  private readonly compute: Histogram;
  private readonly nodeLatency: Histogram;
  private utilization: () => readonly InstanceUtilization[] = () => [];

  constructor(private readonly telemetry: Telemetry = new Telemetry()) {
    const m = telemetry.meter;
    const seconds = (name: string, description: string): Histogram =>
      m.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: LATENCY_BUCKETS_S } });
    const observeTotals = (read: (t: RequestTotals) => number) => (result: ObservableResult) => {
      for (const versions of this.totals.values()) for (const t of versions.values()) result.observe(read(t), t.labels);
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
    this.batchSize = m.createHistogram('sluice_batch_size', {
      description: 'Requests per batch run, per model.',
      advice: { explicitBucketBoundaries: BATCH_SIZE_BUCKETS },
    });
    this.compute = seconds('sluice_inference_compute_duration_seconds', 'Time one batch run took on its instance, per model, in seconds.');
    this.nodeLatency = seconds('sluice_workflow_node_duration_seconds', 'Time each workflow node took, per workflow, node and outcome, in seconds.');
    m.createObservableGauge('sluice_instance_utilization_ratio', { description: 'Fraction of the last look each instance spent running batches.' }).addCallback(
      (result) => {
        for (const u of this.utilization()) result.observe(u.utilization, { model_name: u.model, model_version: u.version, instance: u.instance });
      },
    );
  }

  batchCompleted(o: BatchObservation): void {
    const labels = { model_name: o.model, model_version: o.version };
    this.batchSize.record(o.size, labels);
    this.compute.record(o.computeUs / 1e6, labels);
  }

  watchUtilization(source: () => readonly InstanceUtilization[]): void {
    this.utilization = source;
  }

  inferenceCompleted(o: InferenceObservation): void {
    const totals = this.totalsOf(o.model, o.version);
    totals.requests += 1;
    totals.latencyUs += Math.round(o.latencyUs);
    totals.queueUs += Math.round(o.queueUs);
    this.latency.record(o.latencyUs / 1e6, totals.labels);
    this.queueTime.record(o.queueUs / 1e6, totals.labels);
    if (!o.ok) this.failures.add(1, totals.labels);
  }

  private totalsOf(model: string, version: string): RequestTotals {
    let versions = this.totals.get(model);
    if (versions === undefined) this.totals.set(model, (versions = new Map<string, RequestTotals>()));
    let totals = versions.get(version);
    if (totals === undefined) versions.set(version, (totals = { labels: { model_name: model, model_version: version }, requests: 0, latencyUs: 0, queueUs: 0 }));
    return totals;
  }

  workflowNodeCompleted(o: WorkflowNodeObservation): void {
    this.nodeLatency.record(o.latencyUs / 1e6, { workflow: o.workflow, node: o.node, status: o.status });
  }

  errorAnswered(code: string, transport: string): void {
    this.errors.add(1, { code, transport });
  }

  async scrape(): Promise<{ contentType: string; body: string }> {
    const text = (await this.telemetry.prometheusText()).replace(TORCHSERVE_COUNTER_NAMES, '$1$2');
    return { contentType: PROMETHEUS_CONTENT_TYPE, body: text.endsWith('\n') ? text : `${text}\n` };
  }
}
