import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../common/errors/index.js';
import type { RequestKnobs } from '../../../serving/inference-service.js';

/** Header giving a request's priority level (1 = highest). */
export const PRIORITY_HEADER = 'x-sluice-priority';
/** Header giving a request's own timeout in milliseconds. */
export const TIMEOUT_HEADER = 'x-sluice-timeout-ms';

function positiveInteger(value: unknown, what: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < min) {
    throw new SluiceError('SLUICE_REQUEST_INVALID', `${what} must be an integer of at least ${min}, got ${JSON.stringify(value)}`);
  }
  return number;
}

/**
 * A cheap "has the client gone?" check: no listener or controller per request, just a look at the
 * socket when the scheduler is about to run the request.
 */
export function clientGone(request: FastifyRequest, reply: FastifyReply): () => boolean {
  return () => request.raw.socket.destroyed || reply.raw.destroyed;
}

/** Scheduling knobs from `x-sluice-priority` and `x-sluice-timeout-ms`. */
export function knobsFromHeaders(request: FastifyRequest, reply: FastifyReply): RequestKnobs {
  const priority = positiveInteger(request.headers[PRIORITY_HEADER], `the ${PRIORITY_HEADER} header`, 1);
  const timeoutMs = positiveInteger(request.headers[TIMEOUT_HEADER], `the ${TIMEOUT_HEADER} header`, 1);
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    isCancelled: clientGone(request, reply),
  };
}

/**
 * Knobs from OIP request `parameters` (`priority`; `timeout` in microseconds, as Triton reads it),
 * falling back to the headers.
 */
export function knobsFromOipParameters(parameters: Readonly<Record<string, unknown>>, request: FastifyRequest, reply: FastifyReply): RequestKnobs {
  const fromHeaders = knobsFromHeaders(request, reply);
  const priority = positiveInteger(parameters['priority'], 'parameters.priority', 1) ?? fromHeaders.priority;
  const timeoutUs = positiveInteger(parameters['timeout'], 'parameters.timeout (microseconds)', 1);
  const timeoutMs = timeoutUs !== undefined ? timeoutUs / 1000 : fromHeaders.timeoutMs;
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(fromHeaders.isCancelled ? { isCancelled: fromHeaders.isCancelled } : {}),
  };
}
