import { describe, expect, it } from '@jest/globals';
import { PROMETHEUS_CONTENT_TYPE, PrometheusRegistry } from '../../../../src/telemetry/metrics/prometheus-registry.js';

describe('PrometheusRegistry', () => {
  it('renders an empty registry as a single newline', () => {
    expect(new PrometheusRegistry().render()).toBe('\n');
  });

  it('renders HELP and TYPE for a counter without series', () => {
    const registry = new PrometheusRegistry();
    registry.counter('jobs_total', 'Jobs run.', ['model']);
    expect(registry.render()).toBe('# HELP jobs_total Jobs run.\n# TYPE jobs_total counter\n');
  });

  it('renders one line per counter series, in the order series appeared', () => {
    const registry = new PrometheusRegistry();
    const jobs = registry.counter('jobs_total', 'Jobs run.', ['model', 'version']);
    jobs.inc(['iris', '2']);
    jobs.inc(['mnist', '1'], 5);
    jobs.inc(['iris', '2'], 2);
    expect(registry.render()).toBe(
      [
        '# HELP jobs_total Jobs run.',
        '# TYPE jobs_total counter',
        'jobs_total{model="iris",version="2"} 3',
        'jobs_total{model="mnist",version="1"} 5',
        '',
      ].join('\n'),
    );
  });

  it('renders a counter without labels without braces', () => {
    const registry = new PrometheusRegistry();
    registry.counter('up_total', 'Starts.', []).inc([]);
    expect(registry.render()).toBe('# HELP up_total Starts.\n# TYPE up_total counter\nup_total 1\n');
  });

  it('escapes backslashes, quotes and newlines in label values', () => {
    const registry = new PrometheusRegistry();
    registry.counter('c_total', 'C.', ['model']).inc(['a\\b"c\nd']);
    expect(registry.render()).toContain('c_total{model="a\\\\b\\"c\\nd"} 1\n');
  });

  it('keeps series apart whose label values would join to the same text', () => {
    const registry = new PrometheusRegistry();
    const c = registry.counter('c_total', 'C.', ['a', 'b']);
    c.inc(['x', 'yz']);
    c.inc(['xy', 'z']);
    expect(registry.render()).toContain('c_total{a="x",b="yz"} 1\nc_total{a="xy",b="z"} 1\n');
  });

  it('renders cumulative histogram buckets, +Inf, sum and count', () => {
    const registry = new PrometheusRegistry();
    const h = registry.histogram('latency_seconds', 'Latency.', ['model'], [0.1, 0.5, 1]);
    for (const value of [0.05, 0.1, 0.3, 2]) h.observe(['iris'], value);
    expect(registry.render()).toBe(
      [
        '# HELP latency_seconds Latency.',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{model="iris",le="0.1"} 2',
        'latency_seconds_bucket{model="iris",le="0.5"} 3',
        'latency_seconds_bucket{model="iris",le="1"} 3',
        'latency_seconds_bucket{model="iris",le="+Inf"} 4',
        'latency_seconds_sum{model="iris"} 2.45',
        'latency_seconds_count{model="iris"} 4',
        '',
      ].join('\n'),
    );
  });

  it('renders a histogram without labels with only the le label on buckets', () => {
    const registry = new PrometheusRegistry();
    registry.histogram('h', 'H.', [], [1]).observe([], 0.5);
    expect(registry.render()).toBe('# HELP h H.\n# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 1\nh_sum 0.5\nh_count 1\n');
  });

  it('counts a value equal to a bound into that bound’s bucket', () => {
    const registry = new PrometheusRegistry();
    registry.histogram('h', 'H.', [], [1, 2]).observe([], 1);
    expect(registry.render()).toContain('h_bucket{le="1"} 1\nh_bucket{le="2"} 1\n');
  });

  it('renders metrics in registration order, separated by newlines', () => {
    const registry = new PrometheusRegistry();
    registry.counter('b_total', 'B.', []);
    registry.counter('a_total', 'A.', []);
    expect(registry.render()).toBe('# HELP b_total B.\n# TYPE b_total counter\n# HELP a_total A.\n# TYPE a_total counter\n');
  });

  it('uses the text exposition content type', () => {
    expect(PROMETHEUS_CONTENT_TYPE).toBe('text/plain; version=0.0.4; charset=utf-8');
  });
});
