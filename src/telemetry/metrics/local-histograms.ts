import { ValueType, type HrTime } from '@opentelemetry/api';
import { millisToHrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  type CollectionResult,
  type DataPoint,
  type Histogram,
  type HistogramMetricData,
  type MetricProducer,
} from '@opentelemetry/sdk-metrics';
import { HistogramSeries } from './histogram-series.js';

/** What a histogram is: its name, help text, unit and explicit bucket boundaries. */
export interface LocalHistogramDefinition {
  readonly name: string;
  readonly description: string;
  /** UCUM unit, e.g. `s`; empty for counts. */
  readonly unit?: string;
  /** Inclusive upper bounds, ascending. */
  readonly boundaries: readonly number[];
}

function nowHrTime(): HrTime {
  return millisToHrTime(performance.timeOrigin + performance.now());
}

/**
 * A histogram whose label sets are {@link HistogramSeries} the caller keeps: a hot path looks its series
 * up once and then records into it without hashing its labels again, which the OpenTelemetry SDK does
 * on every `record`.
 */
export class LocalHistogram {
  private readonly bySeriesKey = new Map<string, HistogramSeries>();

  constructor(readonly definition: LocalHistogramDefinition) {}

  /** The series of `attributes`, created on first use; the same object for equal attributes. */
  series(attributes: Readonly<Record<string, string>>): HistogramSeries {
    const key = JSON.stringify(Object.keys(attributes).sort().map((name) => [name, attributes[name]]));
    let series = this.bySeriesKey.get(key);
    if (series === undefined) {
      series = new HistogramSeries(this.definition.boundaries, { ...attributes }, nowHrTime());
      this.bySeriesKey.set(key, series);
    }
    return series;
  }

  /** Records `value` under `attributes`: for callers that see each label set too rarely to keep its series. */
  record(value: number, attributes: Readonly<Record<string, string>>): void {
    this.series(attributes).record(value);
  }

  /** The cumulative data points of every series that holds a value. */
  dataPoints(endTime: HrTime): DataPoint<Histogram>[] {
    const points: DataPoint<Histogram>[] = [];
    for (const series of this.bySeriesKey.values()) {
      if (series.count === 0) continue;
      points.push({
        startTime: series.startTime,
        endTime,
        attributes: series.attributes,
        value: {
          buckets: { boundaries: [...series.boundaries], counts: [...series.counts] },
          sum: series.sum,
          count: series.count,
          min: series.min,
          max: series.max,
        },
      });
    }
    return points;
  }
}

/**
 * The process's {@link LocalHistogram}s, handed to the metric readers (Prometheus, OTLP) as an extra
 * metric producer: what they collect from it reads like a histogram instrument of the SDK's, cumulative.
 */
export class LocalHistograms implements MetricProducer {
  private readonly histograms: LocalHistogram[] = [];

  constructor(
    private readonly resource: Resource,
    private readonly scope: { readonly name: string; readonly version?: string },
  ) {}

  /** Defines a histogram; its metric appears once one of its series holds a value. */
  define(definition: LocalHistogramDefinition): LocalHistogram {
    const histogram = new LocalHistogram(definition);
    this.histograms.push(histogram);
    return histogram;
  }

  collect(): Promise<CollectionResult> {
    const endTime = nowHrTime();
    const metrics: HistogramMetricData[] = [];
    for (const histogram of this.histograms) {
      const dataPoints = histogram.dataPoints(endTime);
      if (dataPoints.length === 0) continue;
      const { name, description, unit } = histogram.definition;
      metrics.push({
        descriptor: { name, description, unit: unit ?? '', valueType: ValueType.DOUBLE },
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints,
      });
    }
    return Promise.resolve({
      resourceMetrics: { resource: this.resource, scopeMetrics: metrics.length > 0 ? [{ scope: this.scope, metrics }] : [] },
      errors: [],
    });
  }
}
