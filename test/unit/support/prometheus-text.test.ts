import { describe, expect, it } from '@jest/globals';
import { parsePrometheusText } from '../../support/prometheus-text.js';

/** A histogram family with one series whose buckets, count and sum are given. */
function histogram(buckets: readonly [string, number][], count: number): string {
  const lines = ['# TYPE h histogram', `h_count{m="a"} ${count}`, 'h_sum{m="a"} 1'];
  for (const [le, n] of buckets) lines.push(`h_bucket{m="a",le="${le}"} ${n}`);
  return `${lines.join('\n')}\n`;
}

/** The strict page reader the metrics tests rely on refuses what Prometheus would refuse. */
describe('parsePrometheusText', () => {
  it('reads families, labels with escapes and values', () => {
    const families = parsePrometheusText('# HELP c Help.\n# TYPE c counter\nc{a="x\\"y\\\\z\\n"} 3\n');
    expect(families.get('c')).toEqual({ name: 'c', type: 'counter', help: 'Help.', samples: [{ name: 'c', labels: { a: 'x"y\\z\n' }, value: 3 }] });
  });

  it('takes a consistent histogram', () => {
    expect(parsePrometheusText(histogram([['1', 1], ['+Inf', 2]], 2)).get('h')?.samples).toHaveLength(4);
  });

  it('refuses buckets that are not cumulative', () => {
    expect(() => parsePrometheusText(histogram([['1', 2], ['+Inf', 1]], 1))).toThrow('not cumulative');
  });

  it('refuses a _count that differs from the +Inf bucket', () => {
    expect(() => parsePrometheusText(histogram([['1', 1], ['+Inf', 2]], 3))).toThrow('_count 3 is not the +Inf bucket 2');
  });

  it('refuses a histogram without a +Inf bucket', () => {
    expect(() => parsePrometheusText(histogram([['1', 1]], 1))).toThrow('no le="+Inf" bucket');
  });

  it('refuses a series given twice', () => {
    expect(() => parsePrometheusText('g{a="1"} 1\ng{a="1"} 2\n')).toThrow('series twice');
  });

  it('refuses a family that continues after another began', () => {
    expect(() => parsePrometheusText('# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na{x="1"} 1\n')).toThrow('family a continues after another began');
  });

  it('refuses an escape the format does not define', () => {
    expect(() => parsePrometheusText('g{a="\\t"} 1\n')).toThrow('bad escape');
  });

  it('refuses a second TYPE line', () => {
    expect(() => parsePrometheusText('# TYPE g gauge\n# TYPE g gauge\ng 1\n')).toThrow('second TYPE');
  });

  it('refuses a negative counter', () => {
    expect(() => parsePrometheusText('# TYPE c counter\nc -1\n')).toThrow('negative counter');
  });

  it('refuses a page without a final line end', () => {
    expect(() => parsePrometheusText('g 1')).toThrow('does not end with a line end');
  });
});
