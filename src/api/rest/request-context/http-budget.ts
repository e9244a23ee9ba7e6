import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cancellation, RequestBudget } from '../../../budget/request-budget.js';
import { PRIORITY_HEADER, TIMEOUT_HEADER, budgetOfKnobs } from '../../request-knobs/knob-values.js';

/**
 * Whether an HTTP request's client has gone. Looked at, not listened to: the scheduler looks at the socket
 * when a batch forms, so a request costs no listener or controller. Only work that must stop at once (a
 * workflow run) asks for a signal ({@link watch}), which listens once to the response.
 */
export class HttpCancellation implements Cancellation {
  readonly signal = undefined;
  private watched: AbortSignal | undefined;

  constructor(
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
  ) {}

  isCancelled(): boolean {
    return this.request.socket.destroyed || this.response.destroyed;
  }

  /** A signal that aborts when the response closes before its answer was written. */
  watch(): AbortSignal {
    if (this.watched !== undefined) return this.watched;
    const controller = new AbortController();
    const response = this.response;
    if (response.destroyed && !response.writableFinished) controller.abort();
    else {
      response.once('close', () => {
        if (!response.writableFinished) controller.abort();
      });
    }
    this.watched = controller.signal;
    return this.watched;
  }
}

/**
 * An HTTP request's budget, made at the edge: `x-sluice-priority` and `x-sluice-timeout-ms` (a bad one is
 * refused with 400), and the client's going away as {@link HttpCancellation} sees it.
 */
export function httpBudget(headers: IncomingHttpHeaders, request: IncomingMessage, response: ServerResponse): RequestBudget {
  return budgetOfKnobs({ priority: headers[PRIORITY_HEADER], timeout: headers[TIMEOUT_HEADER] }, 'header', { cancellation: new HttpCancellation(request, response) });
}

/** {@link httpBudget} of a routed request. */
export function budgetOfRequest(request: FastifyRequest, reply: FastifyReply): RequestBudget {
  return httpBudget(request.headers, request.raw, reply.raw);
}
