import { kserveInstancesOfBody, type Envelope, type EnvelopeEntries, type EnvelopeRequest } from '../../src/sdk/index.js';

function decodeEntries(request: EnvelopeRequest): EnvelopeEntries {
  return kserveInstancesOfBody(request.body, request.charset);
}

/**
 * The `kserve` envelope: a KServe v1 body, `{"instances": [...]}` or `{"inputs": [...]}`, read exactly as
 * KServe v1 `:predict` reads it (the same checks, codes and messages, a body that is not JSON included),
 * each instance a request of the handler of its own; the answers come back as `{"predictions": [...]}` in
 * the same order.
 */
export const kserveEnvelope: Envelope = {
  name: 'kserve',
  decode: (request) => decodeEntries(request).requests,
  decodeEntries,
  encode(responses) {
    return { body: { predictions: responses } };
  },
};
