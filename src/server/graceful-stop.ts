import type { Logger } from '../sdk/logging/logger.js';
import { settlesWithin } from './settles-within.js';

/**
 * How long, once every connection has been dropped, the ports may still take to close (a plugin's Nest
 * module whose destroy hook never ends, say) before the stop goes on without them.
 */
export const PORT_CLOSE_GRACE_MS = 1000;

/** What the drain delay needs of the serving core. */
export interface ReadinessSwitch {
  /** Answers not-ready from now on, while everything keeps serving. */
  stopReadiness(): void;
}

/**
 * The first step of a stop: readiness answers "not ready" at once, and the ports keep serving every request
 * for `delayMs`, so that load balancers and Kubernetes endpoints stop sending before the ports close. Nothing
 * to wait for when `delayMs` is 0.
 */
export async function delayDrain(core: ReadinessSwitch, delayMs: number, logger: Logger): Promise<void> {
  if (delayMs <= 0) return;
  core.stopReadiness();
  logger.info('stop asked: answering not-ready, still serving until the drain delay has passed', { drainDelayMs: delayMs });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
}

/** An open port as the stop sees it. */
export interface ClosablePort {
  /** Stops accepting and resolves once the requests in progress are done. */
  close(): Promise<void>;
  /** Answers what has not been answered yet (503) where it can, and drops every connection. */
  closeAllConnections(): void;
}

/** What a graceful stop stops, in order. */
export interface GracefulStopParts {
  readonly ports: readonly ClosablePort[];
  /** Drains the models' queues and running requests within the given time; false when it ran out. */
  drainCore(timeoutMs: number): Promise<boolean>;
  /** The plugins' `onShutdown` callbacks, then the telemetry flush; each bounded by its owner. */
  release(): Promise<void>;
  readonly timeoutMs: number;
  readonly logger: Logger;
}

/**
 * Closes the ports, drains the core, then releases plugins and telemetry. The wait for requests is bounded
 * by `timeoutMs` (`shutdownTimeoutMs`) as a whole: what the core does not drain in time is answered 503 by
 * the core, and a request outside the core still running at the bound (a plugin endpoint that never
 * answers) is answered 503 and its connection dropped, so the stop always ends. `drained` says whether the
 * core drained in time (the models' queued and running requests).
 */
export async function stopGracefully(parts: GracefulStopParts): Promise<{ drained: boolean }> {
  const { logger, timeoutMs } = parts;
  logger.info('shutting down: no new requests, draining in-flight ones', { timeoutMs });
  const deadline = performance.now() + timeoutMs;
  const closing = Promise.all(parts.ports.map((p) => p.close()));
  // Its rejection is awaited below; one that comes during the drain must not count as unhandled.
  closing.catch(() => undefined);
  const drained = await parts.drainCore(timeoutMs);
  let cutOff = !drained;
  if (drained && !(await settlesWithin(closing, deadline - performance.now()))) {
    cutOff = true;
    logger.warn('requests outside the models (a plugin endpoint, say) still running after shutdownTimeoutMs: answering 503 and dropping their connections', { timeoutMs });
  }
  let closed = true;
  if (cutOff) {
    for (const p of parts.ports) p.closeAllConnections();
    closed = await settlesWithin(closing, PORT_CLOSE_GRACE_MS);
    if (!closed) {
      logger.warn('a port did not close once its connections were dropped; stopping without waiting for it', { graceMs: PORT_CLOSE_GRACE_MS });
    }
  }
  try {
    // Settled by now; awaited for its rejection (a port that failed to close), after the release.
    if (closed) await closing;
  } finally {
    await parts.release();
  }
  logger.info('stopped', { drained });
  return { drained };
}
