import { jsonBodyText, refuseNonUtf8Charset, SluiceError, type EnvelopeRequest } from '../../src/sdk/index.js';

/**
 * The body parsed as JSON, or `SLUICE_ENVELOPE_INVALID_BODY` saying what the envelope expects; a body
 * declared in a charset other than UTF-8 is `SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE`, and one that is not
 * UTF-8 `SLUICE_REQUEST_MALFORMED_JSON`.
 */
export function parseJsonBody(request: EnvelopeRequest, envelope: string, expected: string): unknown {
  refuseNonUtf8Charset(request.charset);
  const text = jsonBodyText(request.body);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SluiceError('SLUICE_ENVELOPE_INVALID_BODY', `the ${envelope} envelope expects a JSON body ${expected}; the body is not JSON (${(error as Error).message})`, { envelope });
  }
}

/** Whether `value` is a JSON object (not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
