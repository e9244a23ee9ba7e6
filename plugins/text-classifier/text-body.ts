import { SluiceError, type HandlerRequest } from '../../src/sdk/index.js';
import { TEXT_CLASSIFIER } from './text-classifier-options.js';

const ACCEPTED = 'send the text as the body (Content-Type: text/plain), a JSON string, or JSON {"text": "…"}';

function invalid(message: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', `${TEXT_CLASSIFIER}: ${message}; ${ACCEPTED}`, { handler: TEXT_CLASSIFIER });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decoded(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalid('the body is not UTF-8 text');
  }
}

function jsonText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    const text = record['text'] ?? record['data'];
    if (typeof text === 'string') return text;
  }
  const got = Array.isArray(body) ? 'a JSON list' : body === null ? 'JSON null' : typeof body === 'object' ? 'a JSON object without a "text" string' : `a JSON ${typeof body}`;
  throw invalid(`the body is ${got}`);
}

/**
 * The text of a request: a raw UTF-8 body, a JSON string, or `{"text": …}` (also `{"data": …}`, as
 * TorchServe clients send). Empty or blank text throws `SLUICE_REQUEST_INVALID`.
 */
export function textOf(request: HandlerRequest): string {
  const text = request.body instanceof Uint8Array ? decoded(request.body) : jsonText(request.body);
  if (text.trim() === '') throw invalid('the text is empty');
  return text;
}
