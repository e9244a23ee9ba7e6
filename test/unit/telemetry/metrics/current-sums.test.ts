import { describe, expect, it } from '@jest/globals';
import type { Attributes } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, InstrumentType, type MetricProducer, type SumMetricData } from '@opentelemetry/sdk-metrics';
import { CurrentSums, type SumReading } from '../../../../src/telemetry/metrics/current-sums.js';

const RESOURCE = resourceFromAttributes({ 'service.name': 'test' });
const START: [number, number] = [1_700_000_000, 0];

/** Each metric's temporality and points, as `producer` collects them now. */
async function collected(producer: MetricProducer): Promise<unknown[]> {
  const metrics = (await producer.collect()).resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics) as SumMetricData[];
  return metrics.map((metric) => [metric.descriptor.name, metric.aggregationTemporality, metric.isMonotonic, metric.dataPoints.map((point) => [point.attributes, point.value])]);
}

describe('CurrentSums', () => {
  const a: Attributes = { model_name: 'a' };
  const b: Attributes = { model_name: 'b' };

  it('reports the running totals of exactly the series its source reads, cumulative', async () => {
    const sums = new CurrentSums(RESOURCE, { name: 'sluice' });
    let readings: SumReading[] = [
      { value: 3, attributes: a, startTime: START },
      { value: 5, attributes: b, startTime: START },
    ];
    sums.define({ name: 'requests_total', description: 'd', instrument: InstrumentType.OBSERVABLE_COUNTER }, () => readings);
    expect(await collected(sums)).toEqual([['requests_total', AggregationTemporality.CUMULATIVE, true, [[a, 3], [b, 5]]]]);
    readings = [{ value: 4, attributes: b, startTime: START }];
    expect(await collected(sums)).toEqual([['requests_total', AggregationTemporality.CUMULATIVE, true, [[b, 4]]]]);
    readings = [];
    expect(await collected(sums)).toEqual([]);
  });

  it('gives a delta reader what came since its last collection, leaving out series with nothing new', async () => {
    const sums = new CurrentSums(RESOURCE, { name: 'sluice' });
    const readings = new Map([[a, 3], [b, 5]]);
    sums.define({ name: 'requests_total', description: 'd', instrument: InstrumentType.COUNTER }, () => [...readings].map(([attributes, value]) => ({ value, attributes, startTime: START })));
    const delta = sums.producer(() => AggregationTemporality.DELTA);
    expect(await collected(delta)).toEqual([['requests_total', AggregationTemporality.DELTA, true, [[a, 3], [b, 5]]]]);
    readings.set(b, 9);
    expect(await collected(delta)).toEqual([['requests_total', AggregationTemporality.DELTA, true, [[b, 4]]]]);
  });

  it('picks each counter’s temporality by the instrument it stands for', async () => {
    const sums = new CurrentSums(RESOURCE, { name: 'sluice' });
    sums.define({ name: 'sync_total', description: 'd', instrument: InstrumentType.COUNTER }, () => [{ value: 2, attributes: a, startTime: START }]);
    sums.define({ name: 'observed_total', description: 'd', instrument: InstrumentType.OBSERVABLE_COUNTER }, () => [{ value: 2, attributes: a, startTime: START }]);
    // The low-memory preference: deltas for counters, cumulative for observable ones.
    const lowMemory = sums.producer((instrument) => (instrument === InstrumentType.COUNTER ? AggregationTemporality.DELTA : AggregationTemporality.CUMULATIVE));
    await lowMemory.collect();
    expect(await collected(lowMemory)).toEqual([['observed_total', AggregationTemporality.CUMULATIVE, true, [[a, 2]]]]);
  });

  it('keeps the deltas of counters whose series share one attributes object apart', async () => {
    const sums = new CurrentSums(RESOURCE, { name: 'sluice' });
    const totals = { requests: 3, latency: 700 };
    sums.define({ name: 'requests_total', description: 'd', instrument: InstrumentType.COUNTER }, () => [{ value: totals.requests, attributes: a, startTime: START }]);
    sums.define({ name: 'latency_total', description: 'd', instrument: InstrumentType.COUNTER }, () => [{ value: totals.latency, attributes: a, startTime: START }]);
    const delta = sums.producer(() => AggregationTemporality.DELTA);
    expect(await collected(delta)).toEqual([
      ['requests_total', AggregationTemporality.DELTA, true, [[a, 3]]],
      ['latency_total', AggregationTemporality.DELTA, true, [[a, 700]]],
    ]);
    totals.requests = 4;
    totals.latency = 900;
    expect(await collected(delta)).toEqual([
      ['requests_total', AggregationTemporality.DELTA, true, [[a, 1]]],
      ['latency_total', AggregationTemporality.DELTA, true, [[a, 200]]],
    ]);
  });
});
