import type { LoggerService } from '@nestjs/common';
import type { Logger } from '../../sdk/logging/logger.js';

function text(message: unknown): string {
  return typeof message === 'string' ? message : JSON.stringify(message);
}

/** Routes Nest's own log lines into Sluice's logger; Nest's start-up chatter goes to debug. */
export class NestLoggerAdapter implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.debug(text(message), { context });
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error(text(message), { context, trace });
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn(text(message), { context });
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug(text(message), { context });
  }

  verbose(message: unknown, context?: string): void {
    this.logger.debug(text(message), { context });
  }
}
