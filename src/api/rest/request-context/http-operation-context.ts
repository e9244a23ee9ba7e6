import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from '@opentelemetry/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PartialSink } from '../../../partials/partial-sink.js';
import type { RequestBudget } from '../../../budget/request-budget.js';
import type { OperationContext } from '../../operations/operation-context.js';
import { httpBudget } from './http-budget.js';
import { observedRequestId, requestTraceContext } from '../observation/request-observer.js';

/**
 * The operation context of one HTTP request, for a controller or the inference lane. Its budget
 * ({@link httpBudget}) is made from the headers when the operation first reads it, once: a bad
 * `x-sluice-priority` or `x-sluice-timeout-ms` is then refused where it always was, after the model is
 * resolved (and, for OIP, after the body is decoded), on every route alike.
 */
export class HttpOperationContext implements OperationContext {
  private made: RequestBudget | undefined;

  constructor(
    private readonly headers: IncomingHttpHeaders,
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
    readonly api: string,
    readonly requestId: string,
    readonly traceContext: Context | undefined,
    readonly partials?: PartialSink,
  ) {}

  get budget(): RequestBudget {
    return (this.made ??= httpBudget(this.headers, this.request, this.response));
  }
}

/** The operation context of a routed request, for API `api`; `partials` when its answer may be streamed. */
export function httpOperationContext(request: FastifyRequest, reply: FastifyReply, api: string, partials?: PartialSink): HttpOperationContext {
  return new HttpOperationContext(request.headers, request.raw, reply.raw, api, observedRequestId(request), requestTraceContext(request), partials);
}
