/** Severity levels, lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * How log lines are written: `json` (one JSON object per line), `pretty` (for people at a terminal), or
 * `auto`: pretty when the log goes to a terminal, JSON otherwise.
 */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;

/** One of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Structured fields attached to a log line. */
export type LogFields = Readonly<Record<string, unknown>>;

/** The narrow logger every module receives; never a concrete logging library. */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}
