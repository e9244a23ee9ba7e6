import { isUtf8 } from 'node:buffer';
import { SluiceError } from '../errors/index.js';

/**
 * Parses a request body's text as JSON, answering an empty or malformed body with
 * `SLUICE_REQUEST_MALFORMED_JSON` and the parser's reason: the answer every JSON route of Sluice gives.
 */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new SluiceError('SLUICE_REQUEST_MALFORMED_JSON', 'the request body is empty; send a JSON document');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_REQUEST_MALFORMED_JSON', `the request body is not valid JSON: ${reason}`);
  }
}

/**
 * A JSON body's bytes as text. JSON is UTF-8: bytes that are not are refused with
 * `SLUICE_REQUEST_MALFORMED_JSON`, rather than replaced by U+FFFD in the data a model or handler sees.
 */
export function jsonBodyText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!isUtf8(buffer)) throw new SluiceError('SLUICE_REQUEST_MALFORMED_JSON', 'the request body is not valid UTF-8 text; send JSON UTF-8 encoded');
  return buffer.toString('utf8');
}
