/**
 * A strict reader of the Prometheus text format (0.0.4), for checking that a `/metrics` page is one that
 * Prometheus takes: it throws on the first rule a page breaks, naming the line.
 */

/** One sample line. */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One metric family: its `# TYPE`, `# HELP` and samples, in page order. */
export interface PromFamily {
  readonly name: string;
  type: string | undefined;
  help: string | undefined;
  readonly samples: PromSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const VALUE = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN)$/;
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];

function fail(lineNumber: number, line: string, why: string): never {
  throw new Error(`line ${lineNumber}: ${why}: ${line.slice(0, 200)}`);
}

function numberOf(text: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}

/** The labels in `{…}` of a sample line from `at` (the `{`); returns them and the index after the `}`. */
function readLabels(line: string, at: number, lineNumber: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (line[i] !== '}') {
    const eq = line.indexOf('=', i);
    if (eq < 0) fail(lineNumber, line, 'label without =');
    const name = line.slice(i, eq);
    if (!LABEL_NAME.test(name) || name.startsWith('__')) fail(lineNumber, line, `bad label name ${JSON.stringify(name)}`);
    if (Object.hasOwn(labels, name)) fail(lineNumber, line, `label ${name} twice`);
    if (line[eq + 1] !== '"') fail(lineNumber, line, 'label value not quoted');
    let value = '';
    let j = eq + 2;
    for (;;) {
      const c = line[j];
      if (c === undefined) fail(lineNumber, line, 'unterminated label value');
      if (c === '"') break;
      if (c === '\\') {
        const next = line[j + 1];
        if (next === '\\') value += '\\';
        else if (next === '"') value += '"';
        else if (next === 'n') value += '\n';
        else fail(lineNumber, line, `bad escape \\${String(next)}`);
        j += 2;
      } else {
        value += c;
        j += 1;
      }
    }
    labels[name] = value;
    i = j + 1;
    if (line[i] === ',') i += 1;
    else if (line[i] !== '}') fail(lineNumber, line, 'expected , or } after a label');
  }
  return { labels, end: i + 1 };
}

/** The family a sample named `name` belongs to, among those declared so far. */
function familyOf(name: string, families: ReadonlyMap<string, PromFamily>): PromFamily | undefined {
  const own = families.get(name);
  if (own !== undefined) return own;
  for (const suffix of HISTOGRAM_SUFFIXES) {
    if (!name.endsWith(suffix)) continue;
    const family = families.get(name.slice(0, -suffix.length));
    if (family?.type === 'histogram' || family?.type === 'summary') return family;
  }
  return undefined;
}

function seriesKey(name: string, labels: Readonly<Record<string, string>>): string {
  return JSON.stringify([name, Object.entries(labels).sort(([a], [b]) => a.localeCompare(b))]);
}

/** Checks each histogram series: buckets ascending and cumulative, ending at `+Inf`, which equals `_count`; `_sum` present. */
function checkHistogram(family: PromFamily): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = seriesKey('', rest);
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name === `${family.name}_bucket`) {
      if (le === undefined) throw new Error(`${family.name}: bucket without le`);
      entry.buckets.push([numberOf(le), sample.value]);
    } else if (sample.name === `${family.name}_count`) entry.count = sample.value;
    else if (sample.name === `${family.name}_sum`) entry.sum = sample.value;
    else throw new Error(`${family.name}: sample ${sample.name} in a histogram`);
  }
  for (const [key, entry] of series) {
    const where = `${family.name}${key}`;
    for (let i = 1; i < entry.buckets.length; i++) {
      const [bound, count] = entry.buckets[i]!;
      const [lastBound, lastCount] = entry.buckets[i - 1]!;
      if (!(bound > lastBound)) throw new Error(`${where}: le ${bound} after ${lastBound}`);
      if (count < lastCount) throw new Error(`${where}: bucket le=${bound} holds ${count}, fewer than le=${lastBound} (${lastCount}): not cumulative`);
    }
    const last = entry.buckets.at(-1);
    if (last?.[0] !== Infinity) throw new Error(`${where}: no le="+Inf" bucket`);
    if (entry.count !== last[1]) throw new Error(`${where}: _count ${String(entry.count)} is not the +Inf bucket ${last[1]}`);
    if (entry.sum === undefined) throw new Error(`${where}: no _sum`);
  }
}

/**
 * Reads `page` strictly: names, labels and escapes as the format defines them, `# HELP` and `# TYPE` at
 * most once per family and before its samples, each family's lines together, no series twice, counters
 * not negative, histograms cumulative and consistent, and a final line end. Returns the families by name.
 */
export function parsePrometheusText(page: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>();
  const seen = new Set<string>();
  if (page !== '' && !page.endsWith('\n')) throw new Error('the page does not end with a line end');
  let current: PromFamily | undefined;
  const closed = new Set<string>();
  const enter = (family: PromFamily, lineNumber: number, line: string): void => {
    if (current === family) return;
    if (closed.has(family.name)) fail(lineNumber, line, `family ${family.name} continues after another began`);
    if (current !== undefined) closed.add(current.name);
    current = family;
  };
  const lines = page.split('\n').slice(0, -1);
  lines.forEach((line, index) => {
    const lineNumber = index + 1;
    if (line.includes('\r')) fail(lineNumber, line, 'carriage return');
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (match === null) return; // another comment
      const [, keyword, name = '', rest = ''] = match;
      if (!METRIC_NAME.test(name)) fail(lineNumber, line, `bad metric name ${name}`);
      let family = families.get(name);
      if (family === undefined) {
        family = { name, type: undefined, help: undefined, samples: [] };
        families.set(name, family);
      }
      enter(family, lineNumber, line);
      if (keyword === 'HELP') {
        if (family.help !== undefined) fail(lineNumber, line, 'second HELP');
        if (/\\(?![\\n])/.test(rest)) fail(lineNumber, line, 'bad escape in HELP');
        family.help = rest;
      } else {
        if (family.type !== undefined) fail(lineNumber, line, 'second TYPE');
        if (family.samples.length > 0) fail(lineNumber, line, 'TYPE after samples');
        if (!TYPES.has(rest)) fail(lineNumber, line, `unknown type ${rest}`);
        family.type = rest;
      }
      return;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) fail(lineNumber, line, 'not a sample');
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) fail(lineNumber, line, `bad metric name ${name}`);
    const { labels, end } = line[nameEnd] === '{' ? readLabels(line, nameEnd, lineNumber) : { labels: {}, end: nameEnd };
    const parts = line.slice(end).split(' ');
    if (parts[0] !== '' || parts.length < 2 || parts.length > 3) fail(lineNumber, line, 'expected one space, a value and at most a timestamp');
    const valueText = parts[1] ?? '';
    if (!VALUE.test(valueText)) fail(lineNumber, line, `bad value ${valueText}`);
    if (parts[2] !== undefined && !/^-?\d+$/.test(parts[2])) fail(lineNumber, line, 'bad timestamp');
    const key = seriesKey(name, labels);
    if (seen.has(key)) fail(lineNumber, line, 'series twice');
    seen.add(key);
    let family = familyOf(name, families);
    if (family === undefined) {
      family = { name, type: undefined, help: undefined, samples: [] };
      families.set(name, family);
    }
    enter(family, lineNumber, line);
    const value = numberOf(valueText);
    if (family.type === 'counter' && !(value >= 0)) fail(lineNumber, line, 'negative counter');
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}
