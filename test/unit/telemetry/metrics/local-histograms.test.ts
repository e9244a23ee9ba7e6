import { describe, expect, it } from '@jest/globals';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import { HistogramSeries } from '../../../../src/telemetry/metrics/histogram-series.js';
import { LocalHistograms } from '../../../../src/telemetry/metrics/local-histograms.js';

const RESOURCE = resourceFromAttributes({ 'service.name': 'test' });

function histograms(): LocalHistograms {
  return new LocalHistograms(RESOURCE, { name: 'sluice' });
}

async function onlyMetric(producer: LocalHistograms): Promise<HistogramMetricData> {
  const { resourceMetrics } = await producer.collect();
  const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
  expect(metrics).toHaveLength(1);
  return metrics[0] as HistogramMetricData;
}

describe('HistogramSeries', () => {
  it('counts a value equal to a boundary in that boundary bucket', () => {
    const series = new HistogramSeries([1, 2, 4], {}, [0, 0]);
    for (const value of [0.5, 1, 1.5, 2, 4, 4.1]) series.record(value);
    expect(series.counts).toEqual([2, 2, 1, 1]);
  });

  it('keeps sum, count, minimum and maximum', () => {
    const series = new HistogramSeries([10], {}, [0, 0]);
    for (const value of [3, -1, 20]) series.record(value);
    expect({ sum: series.sum, count: series.count, min: series.min, max: series.max }).toEqual({ sum: 22, count: 3, min: -1, max: 20 });
  });

  it('ignores NaN', () => {
    const series = new HistogramSeries([10], {}, [0, 0]);
    series.record(Number.NaN);
    series.record(1);
    expect({ count: series.count, sum: series.sum, counts: series.counts }).toEqual({ count: 1, sum: 1, counts: [1, 0] });
  });
});

describe('LocalHistograms', () => {
  it('hands out one series per label set, whatever the order of its labels', () => {
    const histogram = histograms().define({ name: 'h', description: 'd', boundaries: [1] });
    expect(histogram.series({ a: '1', b: '2' })).toBe(histogram.series({ b: '2', a: '1' }));
    expect(histogram.series({ a: '1', b: '2' })).not.toBe(histogram.series({ a: '1', b: '3' }));
  });

  it('collects nothing for a histogram without values', async () => {
    const producer = histograms();
    producer.define({ name: 'h', description: 'd', boundaries: [1] }).series({ a: '1' });
    expect((await producer.collect()).resourceMetrics.scopeMetrics).toEqual([]);
  });

  it('collects cumulative histogram points with name, help, unit and labels', async () => {
    const producer = histograms();
    const histogram = producer.define({ name: 'latency', description: 'Latency.', unit: 's', boundaries: [0.1, 1] });
    histogram.record(0.05, { model: 'm' });
    histogram.record(2, { model: 'm' });
    const metric = await onlyMetric(producer);
    expect(metric.descriptor).toMatchObject({ name: 'latency', description: 'Latency.', unit: 's' });
    expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(metric.aggregationTemporality).toBe(AggregationTemporality.CUMULATIVE);
    expect(metric.dataPoints).toHaveLength(1);
    expect(metric.dataPoints[0]!.attributes).toEqual({ model: 'm' });
    expect(metric.dataPoints[0]!.value).toEqual({ buckets: { boundaries: [0.1, 1], counts: [1, 0, 1] }, sum: 2.05, count: 2, min: 0.05, max: 2 });
  });

  it('hands a snapshot to the reader: later values do not change what was collected', async () => {
    const producer = histograms();
    const series = producer.define({ name: 'h', description: 'd', boundaries: [1] }).series({});
    series.record(0.5);
    const first = await onlyMetric(producer);
    series.record(0.5);
    expect(first.dataPoints[0]!.value.buckets.counts).toEqual([1, 0]);
    expect((await onlyMetric(producer)).dataPoints[0]!.value.buckets.counts).toEqual([2, 0]);
  });

  it('reaches an OTLP-style periodic reader next to the SDK instruments', async () => {
    const producer = histograms();
    producer.define({ name: 'local', description: 'd', boundaries: [1] }).record(3, { a: 'x' });
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000, metricProducers: [producer] });
    const provider = new MeterProvider({ resource: RESOURCE, readers: [reader] });
    provider.getMeter('sluice').createCounter('sdk_counter').add(1);
    await provider.forceFlush();
    const names = exporter.getMetrics().flatMap((resourceMetrics) => resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name)));
    expect(names).toEqual(expect.arrayContaining(['sdk_counter', 'local']));
    await provider.shutdown();
  });
});

describe('LocalHistograms, delta producer', () => {
  it('reports what came since its last collection, from then on', async () => {
    const producer = histograms();
    const series = producer.define({ name: 'h', description: 'd', boundaries: [1] }).series({ a: 'x' });
    const delta = producer.producer(AggregationTemporality.DELTA);
    series.record(0.5);
    series.record(2);
    const first = (await delta.collect()).resourceMetrics.scopeMetrics[0]!.metrics[0] as HistogramMetricData;
    series.record(0.5);
    const second = (await delta.collect()).resourceMetrics.scopeMetrics[0]!.metrics[0] as HistogramMetricData;
    expect(first.aggregationTemporality).toBe(AggregationTemporality.DELTA);
    expect(first.dataPoints[0]!.value).toEqual({ buckets: { boundaries: [1], counts: [1, 1] }, sum: 2.5, count: 2 });
    expect(second.dataPoints[0]!.value).toEqual({ buckets: { boundaries: [1], counts: [1, 0] }, sum: 0.5, count: 1 });
    expect(second.dataPoints[0]!.startTime).toEqual(first.dataPoints[0]!.endTime);
  });

  it('leaves out a series with nothing new', async () => {
    const producer = histograms();
    producer.define({ name: 'h', description: 'd', boundaries: [1] }).record(1, { a: 'x' });
    const delta = producer.producer(AggregationTemporality.DELTA);
    await delta.collect();
    expect((await delta.collect()).resourceMetrics.scopeMetrics).toEqual([]);
  });

  it('keeps each reader apart: a delta reader does not change what a cumulative one sees', async () => {
    const producer = histograms();
    const series = producer.define({ name: 'h', description: 'd', boundaries: [1] }).series({});
    series.record(0.5);
    await producer.producer(AggregationTemporality.DELTA).collect();
    series.record(0.5);
    expect((await onlyMetric(producer)).dataPoints[0]!.value.count).toBe(2);
  });

  it('is the producer itself for cumulative readers', () => {
    const producer = histograms();
    expect(producer.producer(AggregationTemporality.CUMULATIVE)).toBe(producer);
  });
});
