import type { Logger } from '../sdk/logging/logger.js';
import { settlesWithin } from '../server/settles-within.js';
import type { SluiceServer } from '../server/sluice-server.js';
import { isAbandonedStart } from '../server/start-abandonment.js';

/** How a foreground start-up ended: the server runs, or the start failed (after cleaning up after itself). */
export type StartResult = { readonly kind: 'started'; readonly server: SluiceServer } | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Ends a start-up a SIGTERM or SIGINT interrupted. The start cannot be cut short, so it is let finish, within
 * `timeoutMs` (`shutdownTimeoutMs`), then what it started is stopped gracefully (a start that fails shuts down
 * what it had started itself). A start-up still running then is given up with `abandon` (see
 * `StartServerOptions.abandon`): what it had started is stopped without waiting for it, so plugins'
 * `onShutdown` callbacks and the telemetry flush still run, within `timeoutMs` more. A stop still running
 * when its time is up is left behind. Resolves with the exit status: 0, as after any stop by a signal, or
 * what `failed` makes of the start's error.
 */
export async function stopInterruptedStart(
  starting: Promise<StartResult>,
  signal: NodeJS.Signals,
  timeoutMs: number,
  logger: Logger,
  failed: (error: unknown) => number,
  abandon: () => void,
): Promise<number> {
  logger.info('start-up interrupted by a signal: stopping what has started', { signal, timeoutMs });
  let status = 0;
  // Set by the callback below, which the compiler cannot follow.
  const start = { ended: false };
  const stopping = starting.then(async (result) => {
    start.ended = true;
    if (result.kind === 'started') await result.server.stop();
    else if (!isAbandonedStart(result.error)) status = failed(result.error);
  });
  // Awaited once settled, so that a stop that failed in time rejects here.
  if (await settlesWithin(stopping, timeoutMs)) {
    await stopping;
    return status;
  }
  if (start.ended) {
    logger.warn('the stop did not end within shutdownTimeoutMs: exiting without waiting for it', { timeoutMs });
    return status;
  }
  logger.warn('start-up did not end within shutdownTimeoutMs: giving it up, stopping what it had started', { timeoutMs });
  abandon();
  if (await settlesWithin(stopping, timeoutMs)) {
    await stopping;
    logger.info('stopped what the start-up had started');
  } else logger.warn('what the start-up had started did not stop within shutdownTimeoutMs: exiting without waiting for it', { timeoutMs });
  return status;
}
