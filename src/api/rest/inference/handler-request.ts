import type { FastifyRequest } from 'fastify';
import type { HandlerRequest } from '../../../plugins/sdk/handler.js';
import { bodyBytes, isJsonMediaType, mediaTypeOf, parseJson } from '../common/request-body.js';

/** Media types curl and browsers send for typed-in bodies; JSON in them is taken as JSON. */
const LOOSE_TEXT_TYPES = new Set(['', 'text/plain', 'application/x-www-form-urlencoded']);

/**
 * The body as a handler sees it: parsed JSON for JSON media types (and for JSON-looking text sent as
 * text/plain, form data or without a type, as `curl -d` does), raw bytes for everything else.
 */
export function handlerRequestOf(request: FastifyRequest): HandlerRequest {
  const contentType = mediaTypeOf(request);
  const bytes = bodyBytes(request);
  if (isJsonMediaType(contentType)) return { body: parseJson(bytes.toString('utf8')), contentType };
  if (LOOSE_TEXT_TYPES.has(contentType)) {
    const text = bytes.toString('utf8');
    if (/^\s*[[{]/.test(text)) return { body: parseJson(text), contentType };
  }
  return { body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), contentType };
}
