import type { FastifyRequest } from 'fastify';
import { SluiceError } from '../../../common/errors/index.js';

/** The media type of a request, lower-cased, without parameters; empty when absent. */
export function mediaTypeOf(request: FastifyRequest): string {
  const header = request.headers['content-type'] ?? '';
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

/** True for `application/json` and `application/*+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** The raw body bytes (every content type is read as bytes; see the HTTP app factory). */
export function bodyBytes(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/** Parses JSON, answering malformed input with `SLUICE_REQUEST_MALFORMED_JSON` and the parser's reason. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new SluiceError('SLUICE_REQUEST_MALFORMED_JSON', 'the request body is empty; send a JSON document');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_REQUEST_MALFORMED_JSON', `the request body is not valid JSON: ${reason}`);
  }
}
