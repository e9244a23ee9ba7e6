import { definePlugin, type Envelope } from '../../src/sdk/index.js';
import { bodyEnvelope } from './body-envelope.js';
import { instancesEnvelope } from './instances-envelope.js';
import { kserveEnvelope } from './kserve-envelope.js';
import { kserveV2Envelope } from './kservev2-envelope.js';

export { bodyEnvelope } from './body-envelope.js';
export { instancesEnvelope } from './instances-envelope.js';
export { kserveEnvelope } from './kserve-envelope.js';
export { kserveV2Envelope } from './kservev2-envelope.js';

/** `json`: `{"instances": [...]}` → `{"predictions": [...]}`. */
export const jsonEnvelope: Envelope = instancesEnvelope('json');

/** The built-in envelopes. */
export const builtinEnvelopes: readonly Envelope[] = [jsonEnvelope, bodyEnvelope, kserveEnvelope, kserveV2Envelope];

/** The plugin object: registers the built-in envelopes. */
export default definePlugin({
  register(context) {
    for (const envelope of builtinEnvelopes) context.envelope(envelope);
  },
});
