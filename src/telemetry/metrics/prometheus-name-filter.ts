/** The metric name a sample line starts with: up to its labels or its value. */
function sampleName(line: string): string {
  const end = line.search(/[{ ]/);
  return end < 0 ? line : line.slice(0, end);
}

/** The metric a `# HELP`, `# TYPE` or `# UNIT` line describes; undefined for any other line. */
function describedMetric(line: string): string | undefined {
  const match = /^# (?:HELP|TYPE|UNIT) (\S+)/.exec(line);
  return match?.[1];
}

/**
 * The part of a Prometheus text page that `names` ask for, as TorchServe's `GET /metrics?name[]=…`
 * answers: a metric asked for by its name comes whole (a histogram with its buckets, sum and count);
 * a sample name (`…_bucket`, `…_count`, `…_sum`) brings those samples under their metric's `# HELP` and
 * `# TYPE`. Names that match nothing add nothing; when none matches, the page is empty.
 */
export function metricsNamed(page: string, names: ReadonlySet<string>): string {
  let out = '';
  let header = '';
  let metric: string | undefined;
  let whole = false;
  let samples = '';
  const flush = (): void => {
    if (whole || samples !== '') out += header + samples;
    header = '';
    samples = '';
  };
  for (const line of page.split('\n')) {
    if (line === '') continue;
    const described = describedMetric(line);
    if (described !== undefined) {
      if (described !== metric) {
        flush();
        metric = described;
        whole = names.has(described);
      }
      header += `${line}\n`;
    } else if (line.startsWith('#')) {
      continue;
    } else if (whole || names.has(sampleName(line))) {
      samples += `${line}\n`;
    }
  }
  flush();
  return out;
}
