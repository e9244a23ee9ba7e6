import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestKnobs } from '../../../serving/inference-service.js';
import { PRIORITY_HEADER, TIMEOUT_HEADER, oipParameterKnobs, positiveInteger } from '../../common/knob-values.js';
import { requestTraceContext } from './request-observer.js';

export { PRIORITY_HEADER, TIMEOUT_HEADER };

/**
 * A cheap "has the client gone?" check: no listener or controller per request, just a look at the
 * socket when the scheduler is about to run the request.
 */
export function clientGone(request: IncomingMessage, response: ServerResponse): () => boolean {
  return () => request.socket.destroyed || response.destroyed;
}

/** Scheduling knobs from `x-sluice-priority` and `x-sluice-timeout-ms`, and the request's trace context. */
export function knobsFromHeaders(request: FastifyRequest, reply: FastifyReply): RequestKnobs {
  return knobsFromHeaderValues(request.headers, clientGone(request.raw, reply.raw), requestTraceContext(request));
}

/** `x-sluice-priority` and `x-sluice-timeout-ms` (ms), each undefined when absent; a bad one is refused with 400. */
export function headerKnobs(headers: IncomingHttpHeaders): { readonly priority: number | undefined; readonly timeoutMs: number | undefined } {
  return {
    priority: positiveInteger(headers[PRIORITY_HEADER], `the ${PRIORITY_HEADER} header`, 1),
    timeoutMs: positiveInteger(headers[TIMEOUT_HEADER], `the ${TIMEOUT_HEADER} header`, 1),
  };
}

/**
 * {@link knobsFromHeaders} from the headers themselves: `isCancelled` tells whether the client has gone,
 * `traceContext` is the request's when it is traced.
 */
export function knobsFromHeaderValues(headers: IncomingHttpHeaders, isCancelled: () => boolean, traceContext?: Context): RequestKnobs {
  const { priority, timeoutMs } = headerKnobs(headers);
  return {
    ...(priority !== undefined ? { priority } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    isCancelled,
    ...(traceContext !== undefined ? { traceContext } : {}),
  };
}

/**
 * Knobs from OIP request `parameters` (`priority`; `timeout` in microseconds, as Triton reads it),
 * falling back to the headers; the request's trace context as {@link knobsFromHeaders} gives it.
 */
export function knobsFromOipParameters(parameters: Readonly<Record<string, unknown>>, request: FastifyRequest, reply: FastifyReply): RequestKnobs {
  return withOipParameterKnobs(parameters, knobsFromHeaders(request, reply));
}

/** `fromHeaders` with the priority and timeout that OIP `parameters` give taking precedence. */
export function withOipParameterKnobs(parameters: Readonly<Record<string, unknown>>, fromHeaders: RequestKnobs): RequestKnobs {
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
