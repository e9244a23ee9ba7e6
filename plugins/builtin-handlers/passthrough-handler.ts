import { encodeJsonOutputs, type BodyForm, type Handler, type HandlerContext, type HandlerRequest, type HandlerResult } from '../../src/sdk/index.js';
import { prepareJsonRequest } from './request-body.js';

/**
 * The default handler: JSON tensors in, the model's output tensors out as nested lists. See
 * `decodeJsonRequestBody` for the accepted bodies.
 */
export const passthroughHandler: Handler<BodyForm> = {
  name: 'passthrough',
  // Both methods are async so that bad input becomes a rejected promise, never a synchronous throw.
  async preprocess(requests: readonly HandlerRequest[], context: HandlerContext) {
    return Promise.resolve(requests.map((request) => prepareJsonRequest(request, context)));
  },
  async postprocess(results: readonly HandlerResult<BodyForm>[]) {
    return Promise.resolve(results.map(({ outputs, state }) => encodeJsonOutputs(outputs, state ?? 'batch')));
  },
};
