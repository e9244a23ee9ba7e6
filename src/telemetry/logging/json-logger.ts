import { LOG_LEVELS, type LogFields, type Logger, type LogLevel } from '../../common/logger.js';

/** Where log lines go; one JSON document per call. */
export type LogSink = (line: string) => void;

const RANK: Readonly<Record<LogLevel, number>> = Object.fromEntries(LOG_LEVELS.map((level, i) => [level, i])) as Record<LogLevel, number>;

/** Keys every line sets itself; fields by these names are written as `field.<key>` instead. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['time', 'level', 'msg']);

/** Renames fields that would overwrite `time`, `level` or `msg`, and reduces errors to name, message and code. */
function safeFields(fields: LogFields): LogFields {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[RESERVED_KEYS.has(key) ? `field.${key}` : key] =
      value instanceof Error ? { name: value.name, message: value.message, ...('code' in value ? { code: value.code } : {}) } : value;
  }
  return out;
}

/**
 * A logger that writes one JSON object per line (`time`, `level`, `msg`, then fields), dropping lines
 * below `level`. Errors in fields, bound or per line, are reduced to name, message and code; a field
 * named `time`, `level` or `msg` is written as `field.time`, `field.level` or `field.msg`.
 */
export class JsonLogger implements Logger {
  private readonly bound: LogFields;

  constructor(
    private readonly level: LogLevel,
    private readonly sink: LogSink = (line) => process.stdout.write(line + '\n'),
    bound: LogFields = {},
  ) {
    this.bound = safeFields(bound);
  }

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
    return new JsonLogger(this.level, this.sink, { ...this.bound, ...fields });
  }

  private write(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields): void {
    if (RANK[level] < RANK[this.level]) return;
    const line = { time: new Date().toISOString(), level, msg, ...this.bound, ...(fields ? safeFields(fields) : {}) };
    this.sink(JSON.stringify(line, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
  }
}
