import { SluiceError, decodeJsonRequestBody, type BodyForm, type HandlerContext, type HandlerRequest, type PreparedRequest } from '../../src/plugins/sdk/index.js';

/** Decodes a request whose body must be JSON tensors, remembering its form for postprocessing. */
export function prepareJsonRequest(request: HandlerRequest, context: HandlerContext): PreparedRequest<BodyForm> {
  if (request.body instanceof Uint8Array) {
    throw new SluiceError(
      'SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE',
      `model \`${context.model.name}\` takes JSON tensors, got ${request.contentType || 'a body without a content type'}; send Content-Type: application/json`,
    );
  }
  const { inputs, form } = decodeJsonRequestBody(request.body, context.model);
  return { inputs, state: form };
}
