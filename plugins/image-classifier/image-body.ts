import { SluiceError, type HandlerRequest } from '../../src/sdk/index.js';
import { IMAGE_CLASSIFIER } from './image-classifier-options.js';

const ACCEPTED = 'send the image bytes (curl --data-binary @image.jpg) or JSON {"data": "<base64 image>"}';

function invalid(message: string): SluiceError {
  return new SluiceError('SLUICE_REQUEST_INVALID', `${IMAGE_CLASSIFIER}: ${message}; ${ACCEPTED}`, { handler: IMAGE_CLASSIFIER });
}

function base64Field(body: Record<string, unknown>): unknown {
  return body['data'] ?? body['b64'];
}

/**
 * The image bytes of a request: the raw body, or the base64 text of a JSON body `{"data": …}` (also
 * `{"b64": …}`, KServe's name, or a bare JSON string), as TorchServe's vision handlers accept. An
 * empty body or image throws `SLUICE_REQUEST_INVALID`.
 */
export function imageBytesOf(request: HandlerRequest): Uint8Array {
  const { body } = request;
  let bytes: Uint8Array;
  if (body instanceof Uint8Array) {
    bytes = body;
  } else {
    const text = typeof body === 'string' ? body : typeof body === 'object' && body !== null && !Array.isArray(body) ? base64Field(body as Record<string, unknown>) : undefined;
    if (typeof text !== 'string') {
      const got = Array.isArray(body) ? 'a JSON list' : typeof body === 'object' && body !== null ? 'a JSON object without a "data" string' : `JSON ${typeof body}`;
      throw invalid(`the body is ${got}`);
    }
    bytes = Buffer.from(text, 'base64');
  }
  if (bytes.length === 0) throw invalid('the body holds no image (it is empty)');
  return bytes;
}
