import { charsetOf } from '../../../sdk/bodies/body-charset.js';
import { handlerRequestFromBytes } from '../../bodies/handler-body.js';
import type { PredictionsCodec } from '../../operations/predictions-operation.js';
import type { HttpBody } from '../request-body/http-body.js';
import { mediaTypeOfHeader } from '../request-body/request-body.js';
import { predictionForm } from './predictions-form.js';

function bytesOf(body: Buffer): Uint8Array {
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}

/**
 * A TorchServe prediction body over HTTP. A handler sees parsed JSON for JSON media types (and for
 * JSON-looking text sent as text/plain, form data or without a type, as `curl -d` does), raw bytes for
 * everything else; a body read as text in a charset other than UTF-8 is refused. An envelope gets the
 * bytes with the media type and charset. A `multipart/form-data` body (`curl -F data=@kitten.jpg`) is a
 * form: each `data` or `body` part a request of the handler, the other fields its parameters.
 */
export const PREDICTIONS_HTTP_CODEC: PredictionsCodec<HttpBody> = {
  handlerRequest: ({ body, headers }) => {
    const contentType = headers['content-type'];
    const mediaType = mediaTypeOfHeader(contentType);
    if (mediaType === 'multipart/form-data' && contentType !== undefined) return predictionForm(bytesOf(body), contentType);
    return handlerRequestFromBytes(bytesOf(body), mediaTypeOfHeader(contentType), charsetOf(contentType));
  },
  envelopeRequest: ({ body, headers }) => {
    const contentType = headers['content-type'];
    const charset = charsetOf(contentType);
    return { body: bytesOf(body), contentType: mediaTypeOfHeader(contentType), ...(charset !== undefined ? { charset } : {}) };
  },
};
