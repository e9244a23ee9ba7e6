import { SluiceError, type Envelope, type HandlerRequest } from '../../src/plugins/sdk/index.js';
import { isJsonObject, parseJsonBody } from './json-body.js';

/**
 * An envelope for `{"instances": [...]}` bodies (also `{"inputs": [...]}` when `acceptInputs`): each
 * instance goes to the handler as a request of its own, so the instances of one body batch together, and
 * the answers come back as `{"predictions": [...]}` in the same order.
 */
export function instancesEnvelope(name: string, acceptInputs: boolean): Envelope {
  const keys = acceptInputs ? '`instances` (or `inputs`)' : '`instances`';
  const expected = `{"instances": [...]}${acceptInputs ? ' or {"inputs": [...]}' : ''}`;
  return {
    name,
    decode(request): readonly HandlerRequest[] {
      const body = parseJsonBody(request, name, expected);
      const list = isJsonObject(body) ? (body['instances'] ?? (acceptInputs ? body['inputs'] : undefined)) : undefined;
      if (!Array.isArray(list)) {
        throw new SluiceError('SLUICE_ENVELOPE_INVALID_BODY', `the ${name} envelope expects ${expected}; the body has no ${keys} list`, { envelope: name });
      }
      if (list.length === 0) {
        throw new SluiceError('SLUICE_ENVELOPE_INVALID_BODY', `the ${name} envelope needs at least one instance; ${keys} is empty`, { envelope: name });
      }
      return list.map((instance) => ({ body: instance as unknown, contentType: 'application/json' }));
    },
    encode(responses) {
      return { body: { predictions: responses } };
    },
  };
}
