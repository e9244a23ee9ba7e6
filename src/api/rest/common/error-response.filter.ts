import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError, isSluiceError } from '../../../common/errors/index.js';
import type { Logger } from '../../../common/logger.js';
import { httpStatusOf } from '../../error-mapping.js';
import { errorBody, errorStyleOf } from './error-body.js';
import { noteRequestError, requestLogFields } from './request-observer.js';

/** Turns what Nest and Fastify throw themselves (unknown route, body limits, media types) into Sluice errors. */
function fromHttpException(error: HttpException, request: FastifyRequest, maxRequestSizeBytes: number): SluiceError {
  const status = error.getStatus();
  const route = `${request.method} ${request.url.split('?')[0] ?? ''}`;
  switch (status) {
    case 404:
      return new SluiceError('SLUICE_ROUTE_NOT_FOUND', `no route ${route}; GET /api-description lists the routes of this port`);
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
 * full. Also used for routes outside Nest (plugin endpoints) and hooks that answer early.
 */
export function replyWithError(request: FastifyRequest, reply: FastifyReply, error: SluiceError, cause: unknown, logger: Logger): void {
  const status = httpStatusOf(error.code, error.category);
  noteRequestError(request, error, status);
  if (status >= 500 && error.code !== 'SLUICE_QUEUE_FULL') {
    logger.error('request failed', { ...requestLogFields(request), method: request.method, url: request.url, code: error.code, error: cause });
  }
  const retryAfter = error.details['retryAfterSeconds'];
  if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
  void reply.status(status).header('content-type', 'application/json; charset=utf-8').send(errorBody(error, status, errorStyleOf(request.url)));
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
    return new SluiceError('SLUICE_INTERNAL', 'internal error; the server log has the details', {}, { cause: exception });
  }
}
