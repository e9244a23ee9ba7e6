/** Label values of one series, in the order of the metric's label names. */
type LabelValues = readonly string[];

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatLabels(names: readonly string[], values: LabelValues, extra?: readonly [string, string]): string {
  const pairs = names.map((name, i) => `${name}="${escapeLabelValue(values[i] ?? '')}"`);
  if (extra) pairs.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

function formatNumber(value: number): string {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** A metric that can write itself in the Prometheus text exposition format. */
interface RenderableMetric {
  render(): string;
}

abstract class LabelledMetric<Series> implements RenderableMetric {
  protected readonly series = new Map<string, { values: LabelValues; state: Series }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  protected seriesFor(values: LabelValues): Series {
    const key = values.join('\u0000');
    let entry = this.series.get(key);
    if (entry === undefined) {
      entry = { values: [...values], state: this.newSeries() };
      this.series.set(key, entry);
    }
    return entry.state;
  }

  protected abstract newSeries(): Series;
  abstract render(): string;
}

/** A monotonically increasing value per label set. */
export class Counter extends LabelledMetric<{ value: number }> {
  /** Adds `amount` (default 1) to the series for `labels`. */
  inc(labels: LabelValues, amount = 1): void {
    this.seriesFor(labels).value += amount;
  }

  /** The series for `labels` as a handle, so hot paths skip the label lookup. */
  bind(labels: LabelValues): { inc(amount?: number): void } {
    const series = this.seriesFor(labels);
    return {
      inc: (amount = 1) => {
        series.value += amount;
      },
    };
  }

  protected newSeries(): { value: number } {
    return { value: 0 };
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { values, state } of this.series.values()) {
      lines.push(`${this.name}${formatLabels(this.labelNames, values)} ${formatNumber(state.value)}`);
    }
    return lines.join('\n');
  }
}

interface HistogramSeries {
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** Observations counted into cumulative buckets per label set. */
export class Histogram extends LabelledMetric<HistogramSeries> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly bucketBounds: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  /** Records one observation for `labels`. */
  observe(labels: LabelValues, value: number): void {
    this.record(this.seriesFor(labels), value);
  }

  /** The series for `labels` as a handle, so hot paths skip the label lookup. */
  bind(labels: LabelValues): { observe(value: number): void } {
    const series = this.seriesFor(labels);
    return {
      observe: (value: number) => {
        this.record(series, value);
      },
    };
  }

  private record(series: HistogramSeries, value: number): void {
    series.sum += value;
    series.count += 1;
    const bounds = this.bucketBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] ?? Infinity)) {
        series.buckets[i] = (series.buckets[i] ?? 0) + 1;
        return;
      }
    }
  }

  protected newSeries(): HistogramSeries {
    return { buckets: this.bucketBounds.map(() => 0), sum: 0, count: 0 };
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { values, state } of this.series.values()) {
      let cumulative = 0;
      this.bucketBounds.forEach((bound, i) => {
        cumulative += state.buckets[i] ?? 0;
        lines.push(`${this.name}_bucket${formatLabels(this.labelNames, values, ['le', formatNumber(bound)])} ${cumulative}`);
      });
      lines.push(`${this.name}_bucket${formatLabels(this.labelNames, values, ['le', '+Inf'])} ${state.count}`);
      lines.push(`${this.name}_sum${formatLabels(this.labelNames, values)} ${formatNumber(state.sum)}`);
      lines.push(`${this.name}_count${formatLabels(this.labelNames, values)} ${state.count}`);
    }
    return lines.join('\n');
  }
}

/** One value of a gauge: its label values and the value. */
export interface GaugeSample {
  readonly labels: LabelValues;
  readonly value: number;
}

/** A value read at scrape time from a callback. */
export class Gauge implements RenderableMetric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    private readonly collect: () => readonly GaugeSample[],
  ) {}

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const { labels, value } of this.collect()) lines.push(`${this.name}${formatLabels(this.labelNames, labels)} ${formatNumber(value)}`);
    return lines.join('\n');
  }
}

/** A set of metrics rendered together as one `/metrics` page. */
export class PrometheusRegistry {
  private readonly metrics: RenderableMetric[] = [];

  /** Creates and registers a counter. */
  counter(name: string, help: string, labelNames: readonly string[]): Counter {
    const metric = new Counter(name, help, labelNames);
    this.metrics.push(metric);
    return metric;
  }

  /** Creates and registers a histogram with the given upper bucket bounds. */
  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    const metric = new Histogram(name, help, labelNames, buckets);
    this.metrics.push(metric);
    return metric;
  }

  /** Creates and registers a gauge whose samples `collect` returns at scrape time. */
  gauge(name: string, help: string, labelNames: readonly string[], collect: () => readonly GaugeSample[]): Gauge {
    const metric = new Gauge(name, help, labelNames, collect);
    this.metrics.push(metric);
    return metric;
  }

  /** The text exposition format (version 0.0.4). */
  render(): string {
    return this.metrics.map((m) => m.render()).join('\n') + '\n';
  }
}

/** Content type of {@link PrometheusRegistry.render}. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
