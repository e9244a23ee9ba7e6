import { PROMETHEUS_CONTENT_TYPE, PrometheusRegistry, type Counter, type Histogram } from './prometheus-registry.js';
import type { BatchObservation, InferenceObservation, InstanceUtilization, ServingMetrics } from './serving-metrics.js';

const MODEL_LABELS = ['model_name', 'model_version'] as const;

/** Bound series of one model version. */
interface ModelSeries {
  readonly requests: { inc(amount?: number): void };
  readonly latencyTotal: { inc(amount?: number): void };
  readonly queueTotal: { inc(amount?: number): void };
  /** Bound lazily: a failure series appears only once a request failed. */
  readonly failures: { inc(): void };
  readonly latency: { observe(value: number): void };
  readonly queueTime: { observe(value: number): void };
  readonly batchSize: { observe(value: number): void };
  readonly compute: { observe(value: number): void };
}

/** Batch sizes: powers of two up to 1024. */
const BATCH_SIZE_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** Latency buckets in seconds: 100 µs to 60 s, roughly ×2.5 apart. */
const LATENCY_BUCKETS_S = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * {@link ServingMetrics} over a {@link PrometheusRegistry}, keeping TorchServe's metric names so existing
 * dashboards work, plus per-model latency histograms.
 */
export class PrometheusServingMetrics implements ServingMetrics {
  private readonly registry = new PrometheusRegistry();
  private readonly requests: Counter;
  private readonly latencyTotal: Counter;
  private readonly queueTotal: Counter;
  private readonly failures: Counter;
  private readonly latency: Histogram;
  private readonly queueTime: Histogram;
  private readonly batchSize: Histogram;
  private readonly compute: Histogram;
  private utilization: () => readonly InstanceUtilization[] = () => [];
  private readonly bound = new Map<string, ModelSeries>();

  constructor() {
    const r = this.registry;
    this.requests = r.counter('ts_inference_requests_total', 'Inference requests received per model.', MODEL_LABELS);
    this.latencyTotal = r.counter(
      'ts_inference_latency_microseconds',
      'Cumulative inference latency per model, in microseconds.',
      MODEL_LABELS,
    );
    this.queueTotal = r.counter(
      'ts_queue_latency_microseconds',
      'Cumulative time requests spent queued per model, in microseconds.',
      MODEL_LABELS,
    );
    this.failures = r.counter('sluice_inference_failures_total', 'Inference requests that ended in an error, per model.', MODEL_LABELS);
    this.latency = r.histogram(
      'sluice_inference_request_duration_seconds',
      'Inference request latency per model, in seconds.',
      MODEL_LABELS,
      LATENCY_BUCKETS_S,
    );
    this.queueTime = r.histogram(
      'sluice_queue_duration_seconds',
      'Time requests spent queued per model, in seconds.',
      MODEL_LABELS,
      LATENCY_BUCKETS_S,
    );
    this.batchSize = r.histogram('sluice_batch_size', 'Requests per batch run, per model.', MODEL_LABELS, BATCH_SIZE_BUCKETS);
    this.compute = r.histogram(
      'sluice_inference_compute_duration_seconds',
      'Time one batch run took on its instance, per model, in seconds.',
      MODEL_LABELS,
      LATENCY_BUCKETS_S,
    );
    r.gauge('sluice_instance_utilization_ratio', 'Fraction of the last look each instance spent running batches.', [...MODEL_LABELS, 'instance'], () =>
      this.utilization().map((u) => ({ labels: [u.model, u.version, u.instance], value: u.utilization })),
    );
  }

  batchCompleted(o: BatchObservation): void {
    const labels = [o.model, o.version];
    this.batchSize.observe(labels, o.size);
    this.compute.observe(labels, o.computeUs / 1e6);
  }

  watchUtilization(source: () => readonly InstanceUtilization[]): void {
    this.utilization = source;
  }

  inferenceCompleted(o: InferenceObservation): void {
    const labels = [o.model, o.version];
    this.requests.inc(labels);
    this.latencyTotal.inc(labels, Math.round(o.latencyUs));
    this.queueTotal.inc(labels, Math.round(o.queueUs));
    this.latency.observe(labels, o.latencyUs / 1e6);
    this.queueTime.observe(labels, o.queueUs / 1e6);
    if (!o.ok) this.failures.inc(labels);
  }

  scrape(): { contentType: string; body: string } {
    return { contentType: PROMETHEUS_CONTENT_TYPE, body: this.registry.render() };
  }
}
