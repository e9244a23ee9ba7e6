import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestKnobs } from '../../../serving/inference-service.js';
import { PRIORITY_HEADER, TIMEOUT_HEADER, oipParameterKnobs, positiveInteger } from '../../common/knob-values.js';
import { requestTraceContext } from './request-observer.js';

export { PRIORITY_HEADER, TIMEOUT_HEADER };

/**
 * A cheap "has the client gone?" check: no listener or controller per request, just a look at the
 * socket when the scheduler is about to run the request.
 */
export function clientGone(request: FastifyRequest, reply: FastifyReply): () => boolean {
  return () => request.raw.socket.destroyed || reply.raw.destroyed;
}

/** Scheduling knobs from `x-sluice-priority` and `x-sluice-timeout-ms`, and the request's trace context. */
export function knobsFromHeaders(request: FastifyRequest, reply: FastifyReply): RequestKnobs {
  const priority = positiveInteger(request.headers[PRIORITY_HEADER], `the ${PRIORITY_HEADER} header`, 1);
  const timeoutMs = positiveInteger(request.headers[TIMEOUT_HEADER], `the ${TIMEOUT_HEADER} header`, 1);
  const traceContext = requestTraceContext(request);
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    isCancelled: clientGone(request, reply),
    ...(traceContext !== undefined ? { traceContext } : {}),
  };
}

/**
 * Knobs from OIP request `parameters` (`priority`; `timeout` in microseconds, as Triton reads it),
 * falling back to the headers; the request's trace context as {@link knobsFromHeaders} gives it.
 */
export function knobsFromOipParameters(parameters: Readonly<Record<string, unknown>>, request: FastifyRequest, reply: FastifyReply): RequestKnobs {
  const fromHeaders = knobsFromHeaders(request, reply);
  const fromParameters = oipParameterKnobs(parameters);
  const priority = fromParameters.priority ?? fromHeaders.priority;
  const timeoutMs = fromParameters.timeoutMs ?? fromHeaders.timeoutMs;
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(fromHeaders.isCancelled ? { isCancelled: fromHeaders.isCancelled } : {}),
    ...(fromHeaders.traceContext !== undefined ? { traceContext: fromHeaders.traceContext } : {}),
  };
}
