import type { FastifyRequest } from 'fastify';

/** The media type of a request, lower-cased, without parameters; empty when absent. */
export function mediaTypeOf(request: FastifyRequest): string {
  return mediaTypeOfHeader(request.headers['content-type']);
}

/** The media type a `Content-Type` value names, lower-cased, without parameters; empty when absent. */
export function mediaTypeOfHeader(contentType: string | undefined): string {
  return ((contentType ?? '').split(';')[0] ?? '').trim().toLowerCase();
}

/** The raw body bytes (every content type is read as bytes; see the HTTP app factory). */
export function bodyBytes(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}
