import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http2';
import { Metadata } from '@grpc/grpc-js';

/** Request headers that belong to the transport and never reach the call's metadata. */
const TRANSPORT_HEADERS = new Set(['content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding', 'accept-encoding']);

/** Milliseconds per `grpc-timeout` unit. */
const TIMEOUT_UNIT_MS: Readonly<Record<string, number>> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000_001 };
const TIMEOUT_PATTERN = /^(\d{1,8})([HMSmun])$/;

/**
 * The milliseconds a `grpc-timeout` header gives (`100m`, `5S`, `250000u`: at most 8 digits and a unit of
 * hours, minutes, seconds, milli-, micro- or nanoseconds); undefined when the value does not parse.
 */
export function parseGrpcTimeout(value: string): number | undefined {
  const match = TIMEOUT_PATTERN.exec(value.trim());
  if (match === null) return undefined;
  const [, amount = '', unit = ''] = match;
  return Number(amount) * (TIMEOUT_UNIT_MS[unit] ?? Number.NaN);
}

/**
 * The call metadata carried by request headers: every header but the pseudo-headers and the transport's
 * own; `-bin` values are base64 (a comma-separated list when a client joined several). Node keeps only the
 * first of a repeated `authorization`; `rawHeaders` (as received) bring back the others, so that auth can
 * refuse a call carrying several.
 */
export function metadataFromHeaders(headers: IncomingHttpHeaders, rawHeaders?: readonly string[]): Metadata {
  const metadata = new Metadata();
  for (const key in headers) {
    if (key.charCodeAt(0) === 58 /* ':' */ || TRANSPORT_HEADERS.has(key)) continue;
    const value = headers[key];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    try {
      if (key.endsWith('-bin')) {
        for (const entry of values) for (const part of entry.split(',')) metadata.add(key, Buffer.from(part.trim(), 'base64'));
      } else {
        for (const entry of values) metadata.add(key, entry);
      }
    } catch {
      // A key or value that metadata refuses (e.g. upper case from a non-conforming client) is left out, as grpc-js does.
    }
  }
  if (rawHeaders !== undefined && typeof headers.authorization === 'string') addRepeatedAuthorization(metadata, rawHeaders);
  return metadata;
}

/** Adds to `metadata` the `authorization` values after the first that `rawHeaders` hold. */
function addRepeatedAuthorization(metadata: Metadata, rawHeaders: readonly string[]): void {
  let seen = 0;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i] !== 'authorization') continue;
    seen += 1;
    if (seen > 1) metadata.add('authorization', rawHeaders[i + 1] ?? '');
  }
}

/** Metadata as HTTP/2 header fields (`-bin` values base64), to send as response headers or trailers. */
export function metadataToHeaders(metadata: Metadata | null | undefined): OutgoingHttpHeaders {
  return metadata ? (metadata.toHttp2Headers()) : {};
}

/** Printable ASCII but `%`: sent as is in `grpc-message`. */
const PLAIN_MESSAGE = /^[\x20-\x24\x26-\x7e]*$/;

/**
 * The most of a status message `grpc-message` carries, in characters. Messages quote what the client sent
 * (a model name, say), and a header block larger than the client accepts is dropped by it, which leaves
 * the two ends' header compression out of step: every later call on the connection would hang.
 */
export const MAX_GRPC_MESSAGE_CHARS = 1024;

/**
 * A status message as `grpc-message` carries it: percent-encoded UTF-8, where printable ASCII other than
 * `%` stays as it is; past {@link MAX_GRPC_MESSAGE_CHARS} characters, cut short with a note of how much.
 */
export function encodeGrpcMessage(full: string): string {
  const message = full.length > MAX_GRPC_MESSAGE_CHARS ? `${full.slice(0, MAX_GRPC_MESSAGE_CHARS)}… (${full.length - MAX_GRPC_MESSAGE_CHARS} more characters)` : full;
  if (PLAIN_MESSAGE.test(message)) return message;
  let encoded = '';
  for (const byte of Buffer.from(message, 'utf8')) {
    encoded += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}
