import type { Logger } from '../../sdk/logging/logger.js';

/** How often a running download logs its progress. */
export const PROGRESS_INTERVAL_MS = 5000;

/**
 * Logs a download's progress: a line with bytes, percent and rate at most every `intervalMs`, and one when
 * it is done. The source is named by its URL, which never carries a credential (such URLs are refused).
 */
export class DownloadProgress {
  private bytes = 0;
  private readonly started: number;
  private lastLogged: number;

  constructor(
    private readonly logger: Logger | undefined,
    private readonly source: string,
    private readonly totalBytes: number,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.lastLogged = this.started;
    logger?.info('model source download started', { source, totalBytes });
  }

  /** Counts `count` more bytes written, logging when the interval has passed. */
  add(count: number): void {
    this.bytes += count;
    const now = this.now();
    if (now - this.lastLogged < this.intervalMs) return;
    this.lastLogged = now;
    this.logger?.info('model source downloading', this.facts(now));
  }

  /** Logs the finished download. */
  finish(): void {
    this.logger?.info('model source downloaded', this.facts(this.now()));
  }

  private facts(now: number): Record<string, unknown> {
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const percent = this.totalBytes === 0 ? 100 : Math.round((this.bytes / this.totalBytes) * 1000) / 10;
    return { source: this.source, bytes: this.bytes, totalBytes: this.totalBytes, percent, bytesPerSecond: Math.round(this.bytes / seconds) };
  }
}
