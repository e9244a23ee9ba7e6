import { refuseNonUtf8Charset } from '../../sdk/bodies/body-charset.js';
import type { HandlerRequest } from '../../sdk/handler/handler.js';
import { jsonBodyText, parseJson } from '../../sdk/bodies/json-text.js';
import { isJsonMediaType } from './json-body.js';

/** Media types curl and browsers send for typed-in bodies (and gRPC, which has none); JSON in them is taken as JSON. */
export const LOOSE_TEXT_TYPES: ReadonlySet<string> = new Set(['', 'text/plain', 'application/x-www-form-urlencoded']);

/** How much of a loose text body is looked at to tell whether it is JSON: its white space, then `{` or `[`. */
const SNIFFED_BYTES = 1024;

/**
 * A body as a handler sees it: parsed JSON for JSON media types (and for JSON-looking text sent as
 * text/plain, form data or without a type), raw bytes for everything else. `charset` is the one the
 * `Content-Type` names (`charsetOf`): a body to be parsed as JSON in any but UTF-8 is refused (415); raw
 * bytes go to the handler whatever their charset.
 */
export function handlerRequestFromBytes(bytes: Uint8Array, contentType: string, charset?: string): HandlerRequest {
  if (isJsonMediaType(contentType)) {
    refuseNonUtf8Charset(charset);
    return { body: parseJson(jsonBodyText(bytes)), contentType };
  }
  if (LOOSE_TEXT_TYPES.has(contentType) && /^\s*[[{]/.test(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SNIFFED_BYTES)).toString('utf8'))) {
    refuseNonUtf8Charset(charset);
    return { body: parseJson(jsonBodyText(bytes)), contentType };
  }
  return { body: bytes, contentType };
}
