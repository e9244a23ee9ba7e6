import type { LogFields, Logger } from '../../src/sdk/logging/logger.js';

/** One line a {@link RecordingLogger} received. */
export interface RecordedLine {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields: LogFields;
}

/** A logger that keeps every line, with the fields of its `child` bindings merged in. */
export class RecordingLogger implements Logger {
  constructor(
    readonly lines: RecordedLine[] = [],
    private readonly bound: LogFields = {},
  ) {}

  debug(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'debug', message, fields: { ...this.bound, ...fields } });
  }

  info(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'info', message, fields: { ...this.bound, ...fields } });
  }

  warn(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'warn', message, fields: { ...this.bound, ...fields } });
  }

  error(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: 'error', message, fields: { ...this.bound, ...fields } });
  }

  child(fields: LogFields): Logger {
    return new RecordingLogger(this.lines, { ...this.bound, ...fields });
  }
}
