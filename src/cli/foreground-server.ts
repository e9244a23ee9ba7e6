import { isSluiceError } from '../sdk/errors/index.js';
import type { ConfigSources, SluiceConfig } from '../config/index.js';
import { startServer } from '../server/sluice-server.js';
import { flushStandardOutput, standardOutputLogger } from '../telemetry/logging/standard-output-log.js';
import { stopInterruptedStart, type StartResult } from './interrupted-start.js';
import { announceServing } from './serving-notice.js';
import { tuneGarbageCollector } from './garbage-collector-tuning.js';

/** Resolves with the first SIGTERM or SIGINT; a second one exits at once. */
function firstStopSignal(onForce: () => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const handle = (signal: NodeJS.Signals): void => {
      if (received) onForce();
      received = true;
      resolve(signal);
    };
    process.on('SIGTERM', handle);
    process.on('SIGINT', handle);
  });
}

/**
 * Runs the server in this process until SIGTERM or SIGINT, then stops it gracefully. Resolves with the
 * exit status: 0 after a clean stop, 1 when start-up failed. A signal during start-up stops the start
 * (see {@link stopInterruptedStart}) and also exits 0. `configDirectory` is the config file's folder;
 * `warnings` (from loading the configuration) are logged first.
 * A configuration problem found during start-up (`SLUICE_CONFIG_INVALID`, such as an auth provider no
 * plugin offers) is thrown with its source in front, to be reported like a bad value in `sluice.yaml`.
 * The log is written out before it resolves (or throws).
 */
export async function runForeground(
  config: SluiceConfig,
  restoreSnapshot: boolean,
  configDirectory: string,
  sources: ConfigSources,
  warnings: readonly string[] = [],
): Promise<number> {
  try {
    return await serveUntilStopped(config, restoreSnapshot, configDirectory, sources, warnings);
  } finally {
    await flushStandardOutput();
  }
}

/** {@link runForeground} but for the last lines of its log. */
async function serveUntilStopped(config: SluiceConfig, restoreSnapshot: boolean, configDirectory: string, sources: ConfigSources, warnings: readonly string[]): Promise<number> {
  tuneGarbageCollector();
  const logger = standardOutputLogger(config.logLevel, config.logFormat);
  for (const warning of warnings) logger.warn(warning);
  // Listen before anything is announced, so a signal sent right after start-up is never missed.
  const stopSignal = firstStopSignal(() => {
    logger.warn('second signal: exiting without waiting for in-flight requests');
    process.exit(1);
  });
  const failed = (error: unknown): number => {
    if (isSluiceError(error, 'SLUICE_CONFIG_INVALID')) throw sources.attribute(error);
    logger.error('Sluice could not start', { error });
    return 1;
  };
  const abandonment = new AbortController();
  const starting = startServer({ config, logger, restoreSnapshot, configDirectory, abandon: abandonment.signal }).then(
    (server): StartResult => ({ kind: 'started', server }),
    (error: unknown): StartResult => ({ kind: 'failed', error }),
  );
  const first = await Promise.race([starting, stopSignal]);
  if (typeof first === 'string') {
    return stopInterruptedStart(starting, first, config.shutdownTimeoutMs, logger, failed, () => {
      abandonment.abort();
    });
  }
  if (first.kind === 'failed') return failed(first.error);
  const server = first.server;
  logger.info('Sluice is serving', {
    inference: server.inference.url,
    management: server.management.url,
    metrics: server.metrics.url,
    ...(server.grpc ? { grpcInference: server.grpc.inference.address, grpcManagement: server.grpc.management.address } : {}),
    models: server.startup.loaded,
    failedModels: server.startup.failed.length,
  });
  announceServing();
  logger.info('signal received', { signal: await stopSignal });
  await server.stop();
  return 0;
}
