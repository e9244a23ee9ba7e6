import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../../../sdk/logging/logger.js';
import { addRefusalLogFields, markRefusedInFlight, type ParserRefusal } from '../refusals/parser-refusal.js';
import type { RefusedRequestLine } from '../refusals/refused-request-line.js';
import { CLIENT_CLOSED_STATUS, type RequestObserverOptions } from './request-observer.js';

/**
 * Counts and logs what Node's HTTP parser refuses on a port. No request object exists for most of these
 * requests, so Fastify's hooks never see them; without this a client could probe the port unseen.
 */
export interface RefusalObserver {
  /**
   * A refused request with no request object: counts its error and writes its access-log line, with what
   * the parser read of its request line, a new request id, and {@link CLIENT_CLOSED_STATUS} when the
   * connection closed before the refusal could be sent.
   */
  refused(refusal: ParserRefusal, line: RefusedRequestLine | undefined, answered: boolean): void;
  /** A request being served, refused by the parser: counts its error; its own access-log line tells the refusal. */
  refusedInFlight(request: IncomingMessage, refusal: ParserRefusal): void;
}

/**
 * The refusal observer of a port. Each refusal closes its connection, so a flood of bad requests writes
 * one line per connection, and a line holds no byte of the request beyond its method and a cut url.
 */
export function observeRefusals(logger: Logger, options: RequestObserverOptions): RefusalObserver {
  return {
    refused: (refusal, line, answered) => {
      options.metrics?.errorAnswered(refusal.error.code, 'http');
      if (answered) options.metrics?.httpAnswered(refusal.status);
      if (!options.accessLog) return;
      const fields: Record<string, unknown> = {
        method: line?.method ?? null,
        route: null,
        url: line?.url ?? null,
        status: answered ? refusal.status : CLIENT_CLOSED_STATUS,
        latencyMs: null,
        requestId: randomUUID(),
        errorCode: refusal.error.code,
      };
      addRefusalLogFields(fields, refusal);
      logger.info('request', fields);
    },
    refusedInFlight: (request, refusal) => {
      markRefusedInFlight(request, refusal);
      options.metrics?.errorAnswered(refusal.error.code, 'http');
    },
  };
}
