import { context, trace } from '@opentelemetry/api';
import { pino, type Logger as Pino } from 'pino';
import type { LogFields, Logger, LogLevel } from '../../sdk/logging/logger.js';
import { isoTime } from './iso-time.js';
import { lineFields, logValue } from './log-line-fields.js';
import { spanLogFields } from './trace-log-fields.js';

/** Where a logger's lines go: each `write` is one whole line, line end included. */
export interface LogStream {
  write(line: string): void;
}

/**
 * The trace fields of the active span, for code run inside `context.with` while an embedder's context
 * manager is installed; Sluice installs none, and its request lines carry their trace fields explicitly
 * (which win over these).
 */
function activeTraceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  return span === undefined ? NO_TRACE_FIELDS : spanLogFields(span.spanContext());
}

/** What {@link activeTraceFields} gives outside an active span: shared, never written to (see {@link mergeTraceFields}). */
const NO_TRACE_FIELDS: Record<string, string> = Object.freeze({});

/**
 * A line's fields after the active span's trace fields (its own fields win). Without an active span, the
 * line's fields as they are: pino's default merge copies them into the mixin's object for every line.
 */
function mergeTraceFields(fields: object, traceFields: object): object {
  return traceFields === NO_TRACE_FIELDS ? fields : Object.assign(traceFields, fields);
}

/** A line's `time` member, as pino's `isoTime` writes it, with the date and time to the second formatted once a second. */
function lineTime(): string {
  return `,"time":"${isoTime(Date.now())}"`;
}

/**
 * pino as every Sluice line is written: `level` as its name, then `time` (ISO 8601), the bound fields,
 * the line's fields, `msg`. No `pid` or `hostname`. Fields pass {@link lineFields} (reserved keys renamed,
 * errors reduced, bigints as strings); `err`, which pino's standard serializer would turn into
 * type, message and stack, is written like any other error field.
 */
function createPino(level: LogLevel, stream: LogStream): Pino {
  return pino(
    {
      level,
      base: null,
      messageKey: 'msg',
      timestamp: lineTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => lineFields(fields) as Record<string, unknown>,
      },
      serializers: { err: logValue },
      mixin: activeTraceFields,
      mixinMergeStrategy: mergeTraceFields,
    },
    stream,
  );
}

/** The {@link Logger} interface over one pino logger; modules never see pino itself. */
class PinoLogger implements Logger {
  constructor(private readonly pino: Pino) {}

  debug(message: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.debug(message);
    else this.pino.debug(fields, message);
  }

  info(message: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.info(message);
    else this.pino.info(fields, message);
  }

  warn(message: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.warn(message);
    else this.pino.warn(fields, message);
  }

  error(message: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.error(message);
    else this.pino.error(fields, message);
  }

  /** A pino child: its fields are written once, when it is made, and put in front of each of its lines. */
  child(fields: LogFields): Logger {
    return new PinoLogger(this.pino.child(lineFields(fields)));
  }
}

/**
 * A logger that writes one JSON object per line to `stream`: `level`, `time`, the fields (with
 * `trace_id`, `span_id` and `trace_flags` for lines of a traced request, see `traceLogFields`), and
 * `msg`. Lines below `level` are dropped. Errors in fields, bound or per line, are reduced to name,
 * message and code; a field named like a key every line sets is written as `field.<name>`.
 */
export function createLogger(level: LogLevel, stream: LogStream): Logger {
  return new PinoLogger(createPino(level, stream));
}

/** A stream that hands `sink` each line without its line end: for tests and benches that read lines back. */
export function lineSink(sink: (line: string) => void): LogStream {
  return {
    write: (line) => {
      sink(line.endsWith('\n') ? line.slice(0, -1) : line);
    },
  };
}
