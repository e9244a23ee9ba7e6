import { SluiceError, type Envelope, type EnvelopeEntries, type EnvelopeRequest } from '../../src/sdk/index.js';
import { isJsonObject, parseJsonBody } from './json-body.js';

/**
 * An envelope for `{"instances": [...]}` bodies: each instance goes to the handler as a request of its
 * own, marked `instance` as KServe v1 `:predict` marks it (a row, or an object with one entry per input,
 * for handlers of JSON tensors), so the instances of one body batch together; a failing instance is
 * named by its place (`instances[2]: …`), and the answers come back as `{"predictions": [...]}` in the
 * same order.
 */
export function instancesEnvelope(name: string): Envelope {
  const expected = '{"instances": [...]}';
  const decodeEntries = (request: EnvelopeRequest): EnvelopeEntries => {
    const body = parseJsonBody(request, name, expected);
    const list = isJsonObject(body) ? body['instances'] : undefined;
    if (!Array.isArray(list)) {
      throw new SluiceError('SLUICE_ENVELOPE_INVALID_BODY', `the ${name} envelope expects ${expected}; the body has no \`instances\` list`, { envelope: name });
    }
    if (list.length === 0) {
      throw new SluiceError('SLUICE_ENVELOPE_INVALID_BODY', `the ${name} envelope needs at least one instance; \`instances\` is empty`, { envelope: name });
    }
    return { listName: 'instances', requests: list.map((instance: unknown) => ({ body: instance, contentType: 'application/json', instance: true })) };
  };
  return {
    name,
    decode: (request) => decodeEntries(request).requests,
    decodeEntries,
    encode(responses) {
      return { body: { predictions: responses } };
    },
  };
}
