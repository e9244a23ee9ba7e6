import { PROMETHEUS_CONTENT_TYPE, PrometheusRegistry, type Counter, type Histogram } from './prometheus-registry.js';
import type { InferenceObservation, ServingMetrics } from './serving-metrics.js';

const MODEL_LABELS = ['model_name', 'model_version'] as const;

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
