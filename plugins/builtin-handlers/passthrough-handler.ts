import { encodeJsonOutputs, promiseOf, type BodyForm, type Handler, type HandlerContext, type HandlerRequest, type HandlerResult } from '../../src/sdk/index.js';
import { prepareJsonRequest } from './request-body.js';

/**
 * The default handler: JSON tensors in, the model's output tensors out as nested lists. See
 * `decodeJsonRequestBody` for the accepted bodies.
 */
export const passthroughHandler: Handler<BodyForm> = {
  name: 'passthrough',
  // Bad input becomes a rejected promise, never a synchronous throw. Not `async`: an async method that
  // returns a promise makes three where one does, and every prediction of a model without a handler runs both.
  preprocess(requests: readonly HandlerRequest[], context: HandlerContext) {
    return promiseOf(() => requests.map((request) => prepareJsonRequest(request, context)));
  },
  postprocess(results: readonly HandlerResult<BodyForm>[]) {
    return promiseOf(() => results.map(({ outputs, state }) => encodeJsonOutputs(outputs, state ?? 'batch')));
  },
};
