import type { SluiceConfig } from '../config/index.js';
import { startServer } from '../server/sluice-server.js';
import { JsonLogger } from '../telemetry/logging/json-logger.js';

/**
 * Runs the server in this process until SIGTERM or SIGINT, then stops it gracefully. Resolves with the
 * exit status: 0 after a clean stop, 1 when start-up failed.
 */
export async function runForeground(config: SluiceConfig, restoreSnapshot: boolean): Promise<number> {
  const logger = new JsonLogger(config.logLevel);
  let server;
  try {
    server = await startServer({ config, logger, restoreSnapshot });
  } catch (error) {
    logger.error('Sluice could not start', { error });
    return 1;
  }
  logger.info('Sluice is serving', {
    inference: server.inference.url,
    management: server.management.url,
    metrics: server.metrics.url,
    models: server.startup.loaded,
    failedModels: server.startup.failed.length,
  });
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => {
      resolve('SIGTERM');
    });
    process.once('SIGINT', () => {
      resolve('SIGINT');
    });
  });
  logger.info('signal received', { signal });
  // A second signal during the drain means "now".
  const force = (): void => {
    logger.warn('second signal: exiting without waiting for in-flight requests');
    process.exit(1);
  };
  process.once('SIGTERM', force);
  process.once('SIGINT', force);
  await server.stop();
  return 0;
}
