import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError, isSluiceError } from '../../../sdk/errors/index.js';
import type { Logger } from '../../../sdk/logging/logger.js';
import { httpStatusOf } from '../../errors/error-mapping.js';
import { RETRY_AFTER_HEADER, retryAfterSecondsOf } from '../../errors/retry-after.js';
import { unexpectedError } from '../../errors/unexpected-error.js';
import { authChallengeOf } from '../auth/auth-challenge.js';
import { methodNotAllowed, methodsForPath } from '../routing/allowed-methods.js';
import { errorBody, errorStyleOf, type OipErrorBody, type TorchServeErrorBody } from './error-body.js';
import { noteRequestError, requestLogFields } from '../observation/request-observer.js';

/** Turns what Nest and Fastify throw themselves (unknown route, body limits, media types) into Sluice errors. */
function fromHttpException(error: HttpException, request: FastifyRequest, maxRequestSizeBytes: number): SluiceError {
  const status = error.getStatus();
  const route = `${request.method} ${request.url.split('?')[0] ?? ''}`;
  switch (status) {
    case 404: {
      // The router found nothing for this method; a route may still take the path with another one.
      const allowed = methodsForPath(request);
      if (allowed.length > 0) return methodNotAllowed(route, allowed);
      return new SluiceError('SLUICE_ROUTE_NOT_FOUND', `no route ${route}; GET /api-description lists the routes of this port`);
    }
    case 405:
      return new SluiceError('SLUICE_METHOD_NOT_ALLOWED', `${route} is not allowed; GET /api-description lists the routes of this port`);
    case 413:
      return new SluiceError(
        'SLUICE_REQUEST_TOO_LARGE',
        `the request body is larger than the limit of ${maxRequestSizeBytes} bytes; send less data per request or raise maxRequestSizeBytes`,
        { limit: maxRequestSizeBytes },
      );
    case 415:
      return new SluiceError(
        'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
        'the request has a body but no usable Content-Type; send Content-Type: application/json (or the type the model expects)',
      );
    default:
      return new SluiceError(status >= 500 ? 'SLUICE_INTERNAL' : 'SLUICE_REQUEST_INVALID', error.message);
  }
}

/**
 * The one place where errors become HTTP answers: status from `error-mapping.ts`, body in the route
 * family's style (TorchServe `{code, type, message}` or OIP `{error}`), `Retry-After` when the queue is
 * full; `Connection: close` when the request's body has not all arrived. Also used for routes outside Nest
 * (plugin endpoints) and hooks that answer early.
 */
export function replyWithError(request: FastifyRequest, reply: FastifyReply, error: SluiceError, cause: unknown, logger: Logger): void {
  const answer = errorAnswerOf(error, request.url);
  noteRequestError(request, error, answer.status);
  if (isLoggedFailure(error, answer.status)) {
    logger.error('request failed', { ...requestLogFields(request), method: request.method, url: request.url, code: error.code, error: cause });
  }
  const headers = errorAnswerHeaders(answer);
  if (headers !== undefined) void reply.headers(headers);
  // A body still arriving (one too large to wait for, see dropUnreadBody) would be the connection's next bytes.
  if (!request.raw.complete) void reply.header('connection', 'close');
  void reply.status(answer.status).header('content-type', ERROR_CONTENT_TYPE).send(answer.body);
}

/** The media type of every error answer. */
export const ERROR_CONTENT_TYPE = 'application/json; charset=utf-8';

/** An error as an HTTP answer: status, body in the style of the route family of `url`, `Retry-After`, `Allow` and `WWW-Authenticate`. */
export interface ErrorAnswer {
  readonly status: number;
  readonly body: TorchServeErrorBody | OipErrorBody;
  /** Seconds, when the error says when to try again (a full queue). */
  readonly retryAfter?: string;
  /** The methods the path takes, when the error is a method the path does not take. */
  readonly allow?: string;
  /** The auth challenge of a 401 answer. */
  readonly wwwAuthenticate?: string;
}

/** {@link ErrorAnswer} of `error` on a request for `url`. */
export function errorAnswerOf(error: SluiceError, url: string): ErrorAnswer {
  const status = httpStatusOf(error.code, error.category);
  const retryAfter = retryAfterSecondsOf(error);
  const allow = error.details['allow'];
  return {
    status,
    body: errorBody(error, status, errorStyleOf(url)),
    ...(retryAfter !== undefined ? { retryAfter: String(retryAfter) } : {}),
    ...(typeof allow === 'string' ? { allow } : {}),
    ...(status === 401 ? { wwwAuthenticate: authChallengeOf(error.code) } : {}),
  };
}

/** The headers `answer` carries beside its body, by lower-case name; undefined when it has none. */
export function errorAnswerHeaders(answer: ErrorAnswer): Record<string, string> | undefined {
  if (answer.retryAfter === undefined && answer.allow === undefined && answer.wwwAuthenticate === undefined) return undefined;
  return {
    ...(answer.retryAfter !== undefined ? { [RETRY_AFTER_HEADER]: answer.retryAfter } : {}),
    ...(answer.allow !== undefined ? { allow: answer.allow } : {}),
    ...(answer.wwwAuthenticate !== undefined ? { 'www-authenticate': answer.wwwAuthenticate } : {}),
  };
}

/** Server errors that are no fault: a full queue (load), and a model scaled to zero workers (the operator's choice). */
const UNLOGGED_FAILURES: ReadonlySet<string> = new Set(['SLUICE_QUEUE_FULL', 'SLUICE_MODEL_NO_WORKERS']);

/**
 * Whether an error answered with `status` is logged as a failure: server errors, except those that are
 * no fault ({@link UNLOGGED_FAILURES}), each of which would otherwise write an error line per request
 * beside its access-log line.
 */
export function isLoggedFailure(error: SluiceError, status: number): boolean {
  return status >= 500 && !UNLOGGED_FAILURES.has(error.code);
}

/** Nest's side of {@link replyWithError}: everything a controller throws. */
@Catch()
export class ErrorResponseFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly maxRequestSizeBytes: number,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    replyWithError(request, reply, this.toSluiceError(exception, request), exception, this.logger);
  }

  private toSluiceError(exception: unknown, request: FastifyRequest): SluiceError {
    if (isSluiceError(exception)) return exception;
    if (exception instanceof HttpException) return fromHttpException(exception, request, this.maxRequestSizeBytes);
    return unexpectedError(exception);
  }
}
