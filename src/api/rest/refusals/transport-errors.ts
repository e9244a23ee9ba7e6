import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../sdk/errors/index.js';
import type { Logger } from '../../../sdk/logging/logger.js';
import { httpStatusOf, type HttpTransportFault } from '../../errors/error-mapping.js';
import { errorBody } from '../errors/error-body.js';
import { ERROR_CONTENT_TYPE, replyWithError } from '../errors/error-response.filter.js';
import type { ParserRefusal } from './parser-refusal.js';
import type { RefusalObserver } from '../observation/refusal-observer.js';
import { refusedRequestLine } from './refused-request-line.js';
import { headCutShort } from './head-cut-short.js';
import { dropUnreadBody } from '../request-body/body-reader.js';
import { CLIENT_CLOSED_STATUS } from '../observation/request-observer.js';

/**
 * The longest path segment routes take, in characters: longer than any model, version or workflow name
 * (names are at most 128 characters), so such a name is always reachable.
 */
export const MAX_PATH_SEGMENT_LENGTH = 1024;

/** Node's limit on a request's headers, in bytes (its `maxHeaderSize` default). */
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Answers the requests Fastify refuses before routing — a path with a `%` that starts no escape, or a
 * segment longer than {@link MAX_PATH_SEGMENT_LENGTH} — with Sluice's error bodies, as every other error.
 * The answer waits until the rest of the body has arrived and been dropped ({@link dropUnreadBody}), as
 * every refusal decided on the head does, so that it reaches a client still sending; a body that never
 * comes is answered 408 by the receive timeout instead, the request's one answer.
 */
export function answerFrameworkError(logger: Logger): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const refusal =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new SluiceError('SLUICE_REQUEST_INVALID', `a segment of the path ${path.slice(0, 80)}… is longer than ${MAX_PATH_SEGMENT_LENGTH} characters; no route takes one that long`)
        : new SluiceError('SLUICE_REQUEST_INVALID', `the path ${path} is not valid: each % must start an escape of two hex digits (%25 for % itself)`);
    void dropUnreadBody(request.raw).then(() => {
      if (!reply.raw.headersSent && !reply.raw.destroyed) replyWithError(request, reply, refusal, error, logger);
    });
  };
}

/** Node's error codes (`HPE_…`, `ERR_…`), as a refusal's access-log line shows them; anything else is left out. */
const NODE_ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/** Node's parse error for a connection the client ended before the message it was sending was whole. */
const CLIENT_ENDED_MID_MESSAGE = 'HPE_INVALID_EOF_STATE';

/** What a refusal's access-log line tells of the fault and the connection: Node's code and the client's address. */
function faultOf(error: ConnectionError, socket: Socket): Pick<ParserRefusal, 'parserError' | 'remoteAddress'> {
  return { parserError: NODE_ERROR_CODE.test(error.code) ? error.code : undefined, remoteAddress: socket.remoteAddress };
}

/** How a connection whose request Node's HTTP parser refused is answered, counted and logged. */
function refusalOf(error: ConnectionError, socket: Socket): ParserRefusal {
  return { ...answerOf(error), ...faultOf(error, socket) };
}

/** A client that closed or reset its connection part way through a request's head, as its access-log line tells it. */
function clientLeft(error: ConnectionError, socket: Socket): ParserRefusal {
  return {
    status: CLIENT_CLOSED_STATUS,
    error: new SluiceError('SLUICE_REQUEST_INVALID', "the client closed the connection before the request's head was whole"),
    ...faultOf(error, socket),
  };
}

/** A refusal's error with its status from the error mapping, as every other error's. */
function answered(error: SluiceError, fault?: HttpTransportFault): { status: number; error: SluiceError } {
  return { status: httpStatusOf(error.code, error.category, fault), error };
}

/** What a connection whose request Node's HTTP parser refused is told: status and error. */
function answerOf(error: ConnectionError): { status: number; error: SluiceError } {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return answered(
        new SluiceError('SLUICE_REQUEST_TOO_LARGE', `the request's headers are larger than the limit of ${MAX_HEADER_BYTES} bytes; send fewer or shorter headers`),
        'headers-too-large',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return answered(new SluiceError('SLUICE_REQUEST_INVALID', 'the request did not arrive whole in time; send its head and body without pausing'), 'receive-timeout');
    default: {
      const reason = (error as ConnectionError & { reason?: unknown }).reason;
      const what = typeof reason === 'string' ? `${reason.replace(/\.$/, '')} (${error.code})` : error.code;
      return answered(new SluiceError('SLUICE_REQUEST_INVALID', `the request is not valid HTTP/1.1: ${what}; send the request line, headers and body as HTTP/1.1 defines them`));
    }
  }
}

/** What the port's connection tracker knows of a connection's requests. */
export interface TrackedConnections {
  whenIdle(socket: Socket, then: () => void, closedFirst: () => void): void;
  requestStillArriving(socket: Socket): { readonly request: IncomingMessage; readonly response: { readonly headersSent: boolean } } | undefined;
}

/**
 * Answers a connection whose request could not be parsed (malformed HTTP, headers over the limit, a
 * request that did not arrive in time) with Sluice's error body, then closes it: after a parse error
 * nothing more on the connection can be trusted. Requests sent before the bad one on the same connection
 * (pipelined) are answered first. A connection the client already reset gets nothing. Each refusal is
 * counted and gets one access-log line through `observer`, and so does a client that closes or resets
 * the connection part way through a request's head (status 499: it left, nothing is answered).
 */
export function answerClientError(error: ConnectionError, socket: Socket, connections: TrackedConnections, observer: RefusalObserver): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    // The connection itself failed (a reset): nothing can be answered. A request being served logs its own
    // line; a head cut short has none, so it gets one here (the client's address is gone with the socket).
    if (headCutShort(socket)) observer.refused(clientLeft(error, socket), undefined, false);
    return;
  }
  const cut = connections.requestStillArriving(socket);
  if (error.code === CLIENT_ENDED_MID_MESSAGE && cut === undefined) {
    // The client closed its side part way through a head: it left (499), it sent nothing malformed.
    // Requests pipelined before it are still answered; nothing is sent for this one.
    const refusal = clientLeft(error, socket);
    const logLeft = (): void => {
      observer.refused(refusal, undefined, false);
    };
    connections.whenIdle(
      socket,
      () => {
        socket.destroy();
        logLeft();
      },
      logLeft,
    );
    return;
  }
  const refusal = refusalOf(error, socket);
  if (cut !== undefined) {
    // The fault is inside a request already being served (its body will never end): answer now, unless
    // its own answer has begun, which another one would corrupt (its line then says the client left).
    const answer = !cut.response.headersSent && socket.writable;
    // A client that ended the connection part way through its body left rather than sent something
    // malformed: its request's own line says so (499), as the inference lane's does.
    if (answer && error.code !== CLIENT_ENDED_MID_MESSAGE) observer.refusedInFlight(cut.request, refusal);
    refuse(refusal, error, socket, answer);
    return;
  }
  // Read now: what the parser read is known only while its error is fresh.
  const line = refusedRequestLine(error, socket.bytesRead);
  connections.whenIdle(
    socket,
    () => {
      observer.refused(refusal, line, refuse(refusal, error, socket, true));
    },
    () => {
      observer.refused(refusal, line, false);
    },
  );
}

/** Writes `refusal` to `socket` when `answer` says so and it can, then closes it; true when the refusal was written. */
function refuse(refusal: ParserRefusal, error: ConnectionError, socket: Socket, answer: boolean): boolean {
  if (socket.destroyed) return false;
  const written = answer && socket.writable;
  if (written) {
    const { status } = refusal;
    const body = JSON.stringify(errorBody(refusal.error, status, 'torchserve'));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: ${ERROR_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
  return written;
}
