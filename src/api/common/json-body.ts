import { SluiceError } from '../../common/errors/index.js';

/** True for `application/json` and `application/*+json`. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
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
