import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  type InstrumentType,
  type CollectionResult,
  type DataPoint,
  type MetricProducer,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import { nowHrTime } from './hr-now.js';

/** What a counter is: its name, help text, unit, and the SDK instrument it stands for (which picks an exporter's temporality). */
export interface CurrentSumDefinition {
  readonly name: string;
  readonly description: string;
  /** UCUM unit; empty for counts. */
  readonly unit?: string;
  readonly instrument: InstrumentType.COUNTER | InstrumentType.OBSERVABLE_COUNTER;
}

/** One series of a counter as its source reads it now. */
export interface SumReading {
  /** The running total, never falling while the series lives. */
  readonly value: number;
  /** The same object at every reading of one series (several counters may share it): a delta reader remembers its last value by it. */
  readonly attributes: Attributes;
  /** When the series began counting. */
  readonly startTime: HrTime;
}

interface Sum {
  readonly definition: CurrentSumDefinition;
  readonly read: () => Iterable<SumReading>;
}

/**
 * Counters whose series are exactly what their sources read at each collection, handed to the metric
 * readers as an extra metric producer. The SDK's instruments never forget a label set (their cumulative
 * storage keeps every one they saw), so the counters of an unregistered model version stayed on the page
 * for good, and a server whose versions come and go grew its page without end.
 */
export class CurrentSums implements MetricProducer {
  private readonly sums: Sum[] = [];

  constructor(
    private readonly resource: Resource,
    private readonly scope: { readonly name: string; readonly version?: string },
  ) {}

  /** Defines a counter read from `read` at every collection; its metric appears while `read` gives a series. */
  define(definition: CurrentSumDefinition, read: () => Iterable<SumReading>): void {
    this.sums.push({ definition, read });
  }

  /** The running totals every counter reads now. */
  collect(): Promise<CollectionResult> {
    return Promise.resolve(this.result(() => AggregationTemporality.CUMULATIVE, (_sum, reading, endTime) => ({ startTime: reading.startTime, endTime, attributes: reading.attributes, value: reading.value })));
  }

  /**
   * A producer for one reader that wants, for each kind of instrument, the temporality `temporalityOf`
   * gives: for deltas, it remembers what that reader last collected of each series and reports only what
   * came since (a series with nothing new is left out).
   */
  producer(temporalityOf: (instrument: InstrumentType) => AggregationTemporality): MetricProducer {
    // One memory per counter: counters of one source share their series' attributes objects.
    const seenBySum = new Map<Sum, WeakMap<Attributes, { readonly value: number; readonly at: HrTime }>>();
    return {
      collect: () =>
        Promise.resolve(
          this.result(
            (sum) => temporalityOf(sum.definition.instrument),
            (sum, reading, endTime) => {
              if (temporalityOf(sum.definition.instrument) === AggregationTemporality.CUMULATIVE) {
                return { startTime: reading.startTime, endTime, attributes: reading.attributes, value: reading.value };
              }
              let seen = seenBySum.get(sum);
              if (seen === undefined) seenBySum.set(sum, (seen = new WeakMap()));
              const last = seen.get(reading.attributes);
              seen.set(reading.attributes, { value: reading.value, at: endTime });
              if (last !== undefined && last.value === reading.value) return undefined;
              return { startTime: last?.at ?? reading.startTime, endTime, attributes: reading.attributes, value: reading.value - (last?.value ?? 0) };
            },
          ),
        ),
    };
  }

  private result(
    temporalityOf: (sum: Sum) => AggregationTemporality,
    point: (sum: Sum, reading: SumReading, endTime: HrTime) => DataPoint<number> | undefined,
  ): CollectionResult {
    const endTime = nowHrTime();
    const metrics: SumMetricData[] = [];
    for (const sum of this.sums) {
      const dataPoints: DataPoint<number>[] = [];
      for (const reading of sum.read()) {
        const p = point(sum, reading, endTime);
        if (p !== undefined) dataPoints.push(p);
      }
      if (dataPoints.length === 0) continue;
      const { name, description, unit } = sum.definition;
      metrics.push({
        descriptor: { name, description, unit: unit ?? '', valueType: ValueType.DOUBLE },
        aggregationTemporality: temporalityOf(sum),
        dataPointType: DataPointType.SUM,
        isMonotonic: true,
        dataPoints,
      });
    }
    return { resourceMetrics: { resource: this.resource, scopeMetrics: metrics.length > 0 ? [{ scope: this.scope, metrics }] : [] }, errors: [] };
  }
}
