import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { bodyBytes } from './request-body.js';

/** An HTTP request's body bytes and the headers that say how to read them: what the REST codecs decode. */
export interface HttpBody {
  readonly body: Buffer;
  readonly headers: IncomingHttpHeaders;
}

/** The {@link HttpBody} of a routed request (every body is read as bytes; see the HTTP app factory). */
export function httpBodyOf(request: FastifyRequest): HttpBody {
  return { body: bodyBytes(request), headers: request.headers };
}
