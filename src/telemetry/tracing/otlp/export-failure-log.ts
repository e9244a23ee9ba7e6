import type { Logger } from '../../../sdk/logging/logger.js';

/** At most one line per this many milliseconds: a collector that is down fails every batch. */
export const EXPORT_FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * A reporter of failed span exports that writes them to `logger` as warnings naming the endpoint, the
 * reason and what to check: the first failure at once, later ones at most once per `intervalMs`, with
 * the number of failures since the last line. `now` is the clock (milliseconds), for tests.
 */
export function exportFailureLog(logger: Logger, endpoint: string, intervalMs = EXPORT_FAILURE_LOG_INTERVAL_MS, now: () => number = Date.now): (error: Error) => void {
  let lastLine = -Infinity;
  let unreported = 0;
  return (error) => {
    unreported++;
    const at = now();
    if (at - lastLine < intervalMs) return;
    logger.warn('spans could not be exported', {
      endpoint,
      error: error.message,
      failures: unreported,
      hint: 'check that a collector accepts OTLP/HTTP at this endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)',
    });
    lastLine = at;
    unreported = 0;
  };
}
