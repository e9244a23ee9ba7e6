import { describe, expect, it } from '@jest/globals';
import { AggregationTemporalityPreference, OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { AggregationTemporality } from '@opentelemetry/sdk-metrics';
import { histogramTemporality } from '../../../../src/telemetry/metrics/histogram-temporality.js';

describe('histogramTemporality', () => {
  it('is cumulative by default', () => {
    expect(histogramTemporality(new OTLPMetricExporter())).toBe(AggregationTemporality.CUMULATIVE);
  });

  it('is delta when the exporter prefers deltas', () => {
    expect(histogramTemporality(new OTLPMetricExporter({ temporalityPreference: AggregationTemporalityPreference.DELTA }))).toBe(AggregationTemporality.DELTA);
  });

  it('is delta for the low-memory preference, which keeps histograms as deltas', () => {
    expect(histogramTemporality(new OTLPMetricExporter({ temporalityPreference: AggregationTemporalityPreference.LOWMEMORY }))).toBe(AggregationTemporality.DELTA);
  });
});
