import type { Envelope } from '../../src/sdk/index.js';

/**
 * The `body` envelope: the raw body, unparsed, is the handler's one request (for images, audio, any
 * bytes, even when sent as JSON), and the handler's answer is the response as it is.
 */
export const bodyEnvelope: Envelope = {
  name: 'body',
  decode(request) {
    return [{ body: request.body, contentType: request.contentType }];
  },
  encode(responses) {
    const [answer] = responses;
    return answer instanceof Uint8Array ? { body: answer, contentType: 'application/octet-stream' } : { body: answer };
  },
};
