import type { SluiceError } from '../../sdk/errors/index.js';

/**
 * The header (HTTP) and trailing metadata entry (gRPC) telling a refused client when to retry, in
 * seconds; both transports send it for an error that says when (a full queue).
 */
export const RETRY_AFTER_HEADER = 'retry-after';

/** The seconds `error` tells its client to wait before retrying (`retryAfterSeconds`), when it says. */
export function retryAfterSecondsOf(error: SluiceError): number | undefined {
  const seconds = error.details['retryAfterSeconds'];
  return typeof seconds === 'number' ? seconds : undefined;
}
