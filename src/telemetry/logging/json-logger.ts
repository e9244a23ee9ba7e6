import { LOG_LEVELS, type LogFields, type Logger, type LogLevel } from '../../common/logger.js';

/** Where log lines go; one JSON document per call. */
export type LogSink = (line: string) => void;

const RANK: Readonly<Record<LogLevel, number>> = Object.fromEntries(LOG_LEVELS.map((level, i) => [level, i])) as Record<LogLevel, number>;

function errorFields(fields: LogFields): LogFields {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message, ...('code' in value ? { code: value.code } : {}) } : value;
  }
  return out;
}

/**
 * A logger that writes one JSON object per line (`time`, `level`, `msg`, then fields), dropping lines
 * below `level`. Errors in fields are reduced to name, message and code.
 */
export class JsonLogger implements Logger {
  constructor(
    private readonly level: LogLevel,
    private readonly sink: LogSink = (line) => process.stdout.write(line + '\n'),
    private readonly bound: LogFields = {},
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
    return new JsonLogger(this.level, this.sink, { ...this.bound, ...fields });
  }

  private write(level: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields): void {
    if (RANK[level] < RANK[this.level]) return;
    const line = { time: new Date().toISOString(), level, msg, ...this.bound, ...(fields ? errorFields(fields) : {}) };
    this.sink(JSON.stringify(line, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)));
  }
}
