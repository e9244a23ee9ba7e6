import { context, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger as PinoInstance } from 'pino';
import type { LogFields, Logger, LogLevel } from '../../sdk/logging/logger.js';
import { flatFieldsJson } from './flat-log-fields.js';
import { spanLogFields } from './trace-log-fields.js';
import { standardOutput } from './buffered-log-output.js';
import { isoTime } from './iso-time.js';

/** Where log lines go; one JSON document per call, without the line end. */
export type LogSink = (line: string) => void;

/**
 * Keys every line sets itself; fields by these names are written as `field.<key>` instead. The trace
 * fields (`trace_id`, `span_id`, `trace_flags`) are not among them: request lines pass their trace
 * explicitly (`traceLogFields`).
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['time', 'level', 'msg']);

function safeValue(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, ...('code' in value ? { code: value.code } : {}) };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** Whether `fields` can be written as they are: no reserved key, no error, no bigint. */
function alreadySafe(fields: LogFields): boolean {
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const value = fields[key];
    if (RESERVED_KEYS.has(key) || value instanceof Error || typeof value === 'bigint') return false;
  }
  return true;
}

/**
 * Renames fields that would overwrite what every line sets, reduces errors to name, message and code, and
 * writes bigints as strings. Fields that need none of this (nearly every line's) are used as they are:
 * pino reads them only while it writes the line.
 */
function safeFields(fields: LogFields): LogFields {
  if (alreadySafe(fields)) return fields;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) out[RESERVED_KEYS.has(key) ? `field.${key}` : key] = safeValue(value);
  return out;
}

/**
 * The trace fields of the active span, for code run inside `context.with` while an embedder's context
 * manager is installed; Sluice installs none, and its request lines carry their trace fields explicitly
 * (which win over these).
 */
function traceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  return span === undefined ? NO_TRACE_FIELDS : spanLogFields(span.spanContext());
}

/** What {@link traceFields} gives outside an active span: shared, never written to (see {@link mergeTraceFields}). */
const NO_TRACE_FIELDS: Record<string, string> = Object.freeze({});

/**
 * A line's fields after the active span's trace fields (its own fields win). Without an active span, the
 * line's fields as they are: pino's default merge copies them into the mixin's object for every line.
 */
function mergeTraceFields(fields: object, trace: object): object {
  return trace === NO_TRACE_FIELDS ? fields : Object.assign(trace, fields);
}

function sinkStream(sink: LogSink): DestinationStream {
  return {
    write: (line: string) => {
      sink(line.endsWith('\n') ? line.slice(0, -1) : line);
    },
  };
}

/** A line's `time` member, after its level. */
function lineTime(): string {
  return `,"time":"${isoTime(Date.now())}"`;
}

function createPino(level: LogLevel, destination: DestinationStream): PinoInstance {
  return pino(
    {
      level,
      base: null,
      messageKey: 'msg',
      timestamp: lineTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: traceFields,
      mixinMergeStrategy: mergeTraceFields,
    },
    destination,
  );
}

/** The levels a {@link PinoLogger} writes at. */
type LineLevel = Exclude<LogLevel, 'silent'>;

/**
 * The {@link Logger} interface over one pino logger. Lines whose fields are flat (see
 * {@link flatFieldsJson}) and that are written outside an active span (every line Sluice writes itself)
 * are formatted here, exactly as pino formats them, and go to the same destination; any other line is
 * written by pino.
 */
class PinoLogger implements Logger {
  constructor(
    private readonly pino: PinoInstance,
    private readonly destination: DestinationStream,
    /** The logger's bound fields as JSON members; undefined when they are not flat (pino then writes every line). */
    private readonly bindings: string | undefined,
  ) {}

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  child(fields: LogFields): Logger {
    const safe = safeFields(fields);
    const own = flatFieldsJson(safe, RESERVED_KEYS);
    const bindings = this.bindings === undefined || own === undefined ? undefined : this.bindings + own;
    return new PinoLogger(this.pino.child(safe), this.destination, bindings);
  }

  private write(level: LineLevel, message: string, fields: LogFields | undefined): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const own = this.bindings === undefined || trace.getSpan(context.active()) !== undefined ? undefined : flatFieldsJson(fields ?? NO_FIELDS, RESERVED_KEYS);
    if (own !== undefined) {
      this.destination.write(`{"level":"${level}"${lineTime()}${this.bindings ?? ''}${own},"msg":${JSON.stringify(message)}}\n`);
    } else if (fields === undefined) {
      this.pino[level](message);
    } else {
      this.pino[level](safeFields(fields), message);
    }
  }
}

const NO_FIELDS: LogFields = Object.freeze({});

/**
 * A logger that writes one JSON object per line through pino: `level`, `time`, the fields (with
 * `trace_id`, `span_id` and `trace_flags` for lines of a traced request, see `traceLogFields`),
 * and `msg`. Lines below `level` are dropped. Errors in fields, bound or per line, are reduced to name,
 * message and code; a field named like a key every line sets is written as `field.<name>`. Writes to
 * standard output, the lines of each event-loop turn together ({@link standardOutput}), unless given a
 * `sink`, which gets each line as it is logged.
 */
export class JsonLogger extends PinoLogger {
  constructor(level: LogLevel, sink?: LogSink, bound: LogFields = {}) {
    const destination = sink === undefined ? standardOutput() : sinkStream(sink);
    const root = createPino(level, destination);
    const safe = safeFields(bound);
    super(Object.keys(bound).length === 0 ? root : root.child(safe), destination, flatFieldsJson(safe, RESERVED_KEYS));
  }
}
