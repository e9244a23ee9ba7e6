import { describe, expect, it } from '@jest/globals';
import { metricsNamed } from '../../../../src/telemetry/metrics/prometheus-name-filter.js';

const PAGE = [
  '# HELP ts_inference_requests_total Requests.',
  '# TYPE ts_inference_requests_total counter',
  'ts_inference_requests_total{model_name="a",model_version="1"} 2',
  '# HELP sluice_batch_size Batch sizes.',
  '# TYPE sluice_batch_size histogram',
  'sluice_batch_size_count{model_name="a",model_version="1"} 1',
  'sluice_batch_size_sum{model_name="a",model_version="1"} 4',
  'sluice_batch_size_bucket{model_name="a",model_version="1",le="4"} 1',
  'sluice_batch_size_bucket{model_name="a",model_version="1",le="+Inf"} 1',
  '# HELP ts_queue_latency_microseconds Queue time.',
  '# UNIT ts_queue_latency_microseconds us',
  '# TYPE ts_queue_latency_microseconds counter',
  'ts_queue_latency_microseconds{model_name="a",model_version="1"} 7',
  '',
].join('\n');

describe('metricsNamed', () => {
  it('keeps each metric named whole, with its HELP, UNIT and TYPE lines', () => {
    expect(metricsNamed(PAGE, new Set(['ts_queue_latency_microseconds', 'sluice_batch_size']))).toBe(
      [...PAGE.split('\n').slice(3, 13), ''].join('\n'),
    );
  });

  it('keeps the samples of a sample name under their metric’s HELP and TYPE', () => {
    expect(metricsNamed(PAGE, new Set(['sluice_batch_size_count']))).toBe(
      '# HELP sluice_batch_size Batch sizes.\n# TYPE sluice_batch_size histogram\nsluice_batch_size_count{model_name="a",model_version="1"} 1\n',
    );
  });

  it('gives an empty page when no name matches', () => {
    expect(metricsNamed(PAGE, new Set(['no_such_metric', '']))).toBe('');
  });
});
