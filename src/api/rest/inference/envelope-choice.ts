import type { FastifyRequest } from 'fastify';
import { SluiceError } from '../../../common/errors/index.js';
import type { NamedRegistry } from '../../../plugins/registry/named-registry.js';
import type { Envelope } from '../../../plugins/sdk/envelope.js';

/** Header choosing a request's envelope (beats the model's `envelope:`). */
export const ENVELOPE_HEADER = 'x-sluice-envelope';

/**
 * The envelope of a `/predictions` request: `?envelope=` or the `x-sluice-envelope` header, else the
 * model's `envelope:`; undefined when none applies (the handler sees the body itself). An unknown name
 * is `SLUICE_REQUEST_INVALID` listing the known envelopes.
 */
export function chooseEnvelope(request: FastifyRequest, modelEnvelope: string | undefined, envelopes: NamedRegistry<Envelope>): Envelope | undefined {
  const query = (request.query as Readonly<Record<string, unknown>> | undefined)?.['envelope'];
  const header = request.headers[ENVELOPE_HEADER];
  const asked = typeof query === 'string' ? query : typeof header === 'string' ? header : undefined;
  const name = asked ?? modelEnvelope;
  if (name === undefined || name === '') return undefined;
  const envelope = envelopes.find(name);
  if (envelope === undefined) {
    throw new SluiceError('SLUICE_REQUEST_INVALID', `unknown envelope \`${name}\`; known envelopes: ${envelopes.names().join(', ') || 'none'}`);
  }
  return envelope;
}
