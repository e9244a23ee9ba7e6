import { SluiceError } from '../../sdk/errors/index.js';
import type { RequestExchange } from './connection-tracker.js';
import { ERROR_CONTENT_TYPE, errorAnswerHeaders, errorAnswerOf } from './errors/error-response.filter.js';

/**
 * Answers a request still unanswered when a stop's `shutdownTimeoutMs` has run out (a plugin endpoint that
 * never answers, say) with 503 `SLUICE_SERVER_SHUTTING_DOWN`, in its route family's error style, before its
 * connection is dropped. The answer says `Connection: close` when `closesConnection` (no request pipelined
 * behind it waits for its own answer). What its handler sends later is dropped.
 */
export function answerShuttingDown({ request, response }: RequestExchange, closesConnection: boolean): void {
  if (response.headersSent || !response.writable) return;
  const error = new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is shutting down and stopped waiting for this request after shutdownTimeoutMs; retry on another replica');
  const answer = errorAnswerOf(error, request.url ?? '/');
  response.writeHead(answer.status, { ...errorAnswerHeaders(answer), 'content-type': ERROR_CONTENT_TYPE, connection: closesConnection ? 'close' : 'keep-alive' });
  response.end(JSON.stringify(answer.body));
}
