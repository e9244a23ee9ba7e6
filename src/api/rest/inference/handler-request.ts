import type { FastifyRequest } from 'fastify';
import { charsetOf } from '../../../plugins/sdk/body-charset.js';
import type { HandlerRequest } from '../../../plugins/sdk/handler.js';
import { handlerRequestFromBytes } from '../../common/handler-body.js';
import { bodyBytes, mediaTypeOf } from '../common/request-body.js';

/**
 * The body as a handler sees it: parsed JSON for JSON media types (and for JSON-looking text sent as
 * text/plain, form data or without a type, as `curl -d` does), raw bytes for everything else; a body
 * read as text in a charset other than UTF-8 is refused.
 */
export function handlerRequestOf(request: FastifyRequest): HandlerRequest {
  const bytes = bodyBytes(request);
  return handlerRequestFromBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mediaTypeOf(request), charsetOf(request.headers['content-type']));
}
