import { ValueType, type Attributes, type HrTime } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, type CollectionResult, type GaugeMetricData, type MetricProducer } from '@opentelemetry/sdk-metrics';
import { nowHrTime } from './hr-now.js';

/** What a gauge is: its name, help text and unit. */
export interface CurrentGaugeDefinition {
  readonly name: string;
  readonly description: string;
  /** UCUM unit; empty for ratios and counts. */
  readonly unit?: string;
}

/** One series of a gauge as its source reads it now. */
export interface GaugeReading {
  readonly value: number;
  readonly attributes: Attributes;
}

interface Gauge {
  readonly definition: CurrentGaugeDefinition;
  readonly read: () => Iterable<GaugeReading>;
}

/**
 * Gauges whose series are exactly what their sources read at each collection, handed to the metric
 * readers as an extra metric producer. The SDK's observable gauge keeps reporting, with its last value,
 * every label set a callback ever observed (its cumulative storage never forgets one), so an instance
 * removed by scaling or unregistering stayed on the page for good, and instance ids keep growing.
 */
export class CurrentGauges implements MetricProducer {
  private readonly gauges: Gauge[] = [];

  constructor(
    private readonly resource: Resource,
    private readonly scope: { readonly name: string; readonly version?: string },
  ) {}

  /** Defines a gauge read from `read` at every collection; its metric appears while `read` gives a series. */
  define(definition: CurrentGaugeDefinition, read: () => Iterable<GaugeReading>): void {
    this.gauges.push({ definition, read });
  }

  /** The points every gauge reads now. */
  collect(): Promise<CollectionResult> {
    const now: HrTime = nowHrTime();
    const metrics: GaugeMetricData[] = [];
    for (const { definition, read } of this.gauges) {
      const dataPoints = [...read()].map(({ value, attributes }) => ({ startTime: now, endTime: now, attributes, value }));
      if (dataPoints.length === 0) continue;
      metrics.push({
        descriptor: { name: definition.name, description: definition.description, unit: definition.unit ?? '', valueType: ValueType.DOUBLE },
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.GAUGE,
        dataPoints,
      });
    }
    return Promise.resolve({ resourceMetrics: { resource: this.resource, scopeMetrics: metrics.length > 0 ? [{ scope: this.scope, metrics }] : [] }, errors: [] });
  }
}
