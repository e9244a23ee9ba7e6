import { ValueType, type HrTime } from '@opentelemetry/api';
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
import { nowHrTime } from './hr-now.js';

/** What a histogram is: its name, help text, unit and explicit bucket boundaries. */
export interface LocalHistogramDefinition {
  readonly name: string;
  readonly description: string;
  /** UCUM unit, e.g. `s`; empty for counts. */
  readonly unit?: string;
  /** Inclusive upper bounds, ascending. */
  readonly boundaries: readonly number[];
}

/** One key for equal attributes, whatever their order. */
function seriesKey(attributes: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.keys(attributes).sort().map((name) => [name, attributes[name]]));
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
    const key = seriesKey(attributes);
    let series = this.bySeriesKey.get(key);
    if (series === undefined) {
      series = new HistogramSeries(this.definition.boundaries, { ...attributes }, nowHrTime());
      this.bySeriesKey.set(key, series);
    }
    return series;
  }

  /** Drops the series of `attributes`: it leaves the page, and counts from zero if recorded into again. */
  forget(attributes: Readonly<Record<string, string>>): void {
    this.bySeriesKey.delete(seriesKey(attributes));
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

/** What a delta reader saw of one series at its last collection. */
interface SeriesSnapshot {
  readonly counts: readonly number[];
  readonly sum: number;
  readonly count: number;
  readonly at: HrTime;
}

/**
 * The process's {@link LocalHistogram}s, handed to the metric readers (Prometheus, OTLP) as an extra
 * metric producer: what they collect from it reads like a histogram instrument of the SDK's, cumulative
 * unless a reader asks for deltas ({@link producer}).
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

  /** Cumulative points of every histogram. */
  collect(): Promise<CollectionResult> {
    return Promise.resolve(this.result(AggregationTemporality.CUMULATIVE, (histogram, endTime) => histogram.dataPoints(endTime)));
  }

  /**
   * A producer for one reader that wants `temporality`: this object itself for cumulative points; for
   * deltas, one that remembers what that reader last collected and reports only what came since (without
   * minimum and maximum, which a difference of cumulative values cannot give).
   */
  producer(temporality: AggregationTemporality): MetricProducer {
    if (temporality === AggregationTemporality.CUMULATIVE) return this;
    const seen = new WeakMap<DataPoint<Histogram>['attributes'], SeriesSnapshot>();
    return {
      collect: () =>
        Promise.resolve(
          this.result(AggregationTemporality.DELTA, (histogram, endTime) =>
            histogram.dataPoints(endTime).flatMap((point) => {
              const counts = point.value.buckets.counts;
              const sum = point.value.sum ?? 0;
              const count = point.value.count;
              const last = seen.get(point.attributes);
              seen.set(point.attributes, { counts, sum, count, at: endTime });
              if (last !== undefined && last.count === count) return [];
              return [
                {
                  startTime: last?.at ?? point.startTime,
                  endTime,
                  attributes: point.attributes,
                  value: {
                    buckets: { boundaries: point.value.buckets.boundaries, counts: counts.map((n, i) => n - (last?.counts[i] ?? 0)) },
                    sum: sum - (last?.sum ?? 0),
                    count: count - (last?.count ?? 0),
                  },
                },
              ];
            }),
          ),
        ),
    };
  }

  private result(temporality: AggregationTemporality, points: (histogram: LocalHistogram, endTime: HrTime) => DataPoint<Histogram>[]): CollectionResult {
    const endTime = nowHrTime();
    const metrics: HistogramMetricData[] = [];
    for (const histogram of this.histograms) {
      const dataPoints = points(histogram, endTime);
      if (dataPoints.length === 0) continue;
      const { name, description, unit } = histogram.definition;
      metrics.push({
        descriptor: { name, description, unit: unit ?? '', valueType: ValueType.DOUBLE },
        aggregationTemporality: temporality,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints,
      });
    }
    return { resourceMetrics: { resource: this.resource, scopeMetrics: metrics.length > 0 ? [{ scope: this.scope, metrics }] : [] }, errors: [] };
  }
}
