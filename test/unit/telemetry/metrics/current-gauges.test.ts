import { describe, expect, it } from '@jest/globals';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type GaugeMetricData } from '@opentelemetry/sdk-metrics';
import { CurrentGauges, type GaugeReading } from '../../../../src/telemetry/metrics/current-gauges.js';

const RESOURCE = resourceFromAttributes({ 'service.name': 'test' });

describe('CurrentGauges', () => {
  it('reports exactly the series its source reads at each collection', async () => {
    const gauges = new CurrentGauges(RESOURCE, { name: 'sluice' });
    let readings: GaugeReading[] = [
      { value: 0.5, attributes: { instance: 'a' } },
      { value: 0.25, attributes: { instance: 'b' } },
    ];
    gauges.define({ name: 'busy', description: 'd' }, () => readings);
    const points = async (): Promise<unknown[]> => {
      const metrics = (await gauges.collect()).resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics) as GaugeMetricData[];
      return metrics.flatMap((metric) => metric.dataPoints.map((point) => [metric.dataPointType, point.attributes, point.value]));
    };
    expect(await points()).toEqual([
      [DataPointType.GAUGE, { instance: 'a' }, 0.5],
      [DataPointType.GAUGE, { instance: 'b' }, 0.25],
    ]);
    readings = [{ value: 1, attributes: { instance: 'b' } }];
    expect(await points()).toEqual([[DataPointType.GAUGE, { instance: 'b' }, 1]]);
    readings = [];
    expect(await points()).toEqual([]);
  });

  it('reaches an OTLP reader as a metric producer beside the SDK’s instruments', async () => {
    const gauges = new CurrentGauges(RESOURCE, { name: 'sluice' });
    gauges.define({ name: 'busy', description: 'd' }, () => [{ value: 1, attributes: {} }]);
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000, metricProducers: [gauges] });
    const provider = new MeterProvider({ resource: RESOURCE, readers: [reader] });
    provider.getMeter('sluice').createCounter('sdk_counter').add(1);
    await provider.forceFlush();
    const names = exporter.getMetrics().flatMap((resourceMetrics) => resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name)));
    expect(names).toEqual(expect.arrayContaining(['sdk_counter', 'busy']));
    await provider.shutdown();
  });
});
