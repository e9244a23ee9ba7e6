import { SluiceError } from '../../sdk/errors/index.js';
import type { NamedRegistry } from '../../plugins/registry/named-registry.js';
import type { Envelope } from '../../sdk/envelope/envelope.js';

/** Header (HTTP) or metadata key (gRPC) choosing a request's envelope; it beats the model's `envelope:`. */
export const ENVELOPE_HEADER = 'x-sluice-envelope';

/**
 * The envelope of a request: the one it `asked` for (`?envelope=`, the `x-sluice-envelope` header or
 * metadata), else the model's `envelope:`; undefined when none applies (the handler sees the body itself).
 * An unknown name is `SLUICE_REQUEST_INVALID` listing the known envelopes.
 */
export function chooseEnvelope(asked: string | undefined, modelEnvelope: string | undefined, envelopes: NamedRegistry<Envelope>): Envelope | undefined {
  const name = asked ?? modelEnvelope;
  if (name === undefined || name === '') return undefined;
  const envelope = envelopes.find(name);
  if (envelope === undefined) {
    throw new SluiceError('SLUICE_REQUEST_INVALID', `unknown envelope \`${name}\`; known envelopes: ${envelopes.names().join(', ') || 'none'}`);
  }
  return envelope;
}
