import { SluiceError, decodeJsonInstance, decodeJsonRequestBody, type BodyForm, type HandlerContext, type HandlerRequest, type PreparedRequest } from '../../src/sdk/index.js';

/** True for `application/json` and `application/*+json`. */
function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Why raw bytes cannot be read, and what to send instead. */
function rawBodyProblem(request: HandlerRequest, context: HandlerContext): string {
  const model = `model \`${context.model.name}\` takes JSON tensors`;
  // Sluice parses JSON before a handler sees it; JSON still in bytes was handed over unparsed on purpose.
  if (isJsonMediaType(request.contentType)) return `${model}, but this JSON body reached its handler unparsed, as the \`body\` envelope hands it over; send it without that envelope`;
  // Without a content type: a gRPC PredictionsRequest, whose input["data"] is bytes that did not parse as JSON.
  if (request.contentType === '') return `${model}, got bytes that are not JSON and no content type; send the body as JSON (in input["data"] over gRPC)`;
  return `${model}, got ${request.contentType}; send Content-Type: application/json`;
}

/**
 * Decodes a request whose body must be JSON tensors (one KServe instance when `request.instance`),
 * remembering its form for postprocessing.
 */
export function prepareJsonRequest(request: HandlerRequest, context: HandlerContext): PreparedRequest<BodyForm> {
  if (request.body instanceof Uint8Array) throw new SluiceError('SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE', rawBodyProblem(request, context));
  const { inputs, form } = request.instance === true ? decodeJsonInstance(request.body, context.model) : decodeJsonRequestBody(request.body, context.model);
  return { inputs, state: form };
}
