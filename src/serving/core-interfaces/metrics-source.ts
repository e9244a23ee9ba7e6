import type { ServingMetrics } from '../../telemetry/metrics/serving-metrics.js';

/** What the metrics API reads of the serving core: its metrics, to scrape. */
export interface MetricsSource {
  readonly metrics: ServingMetrics;
}
