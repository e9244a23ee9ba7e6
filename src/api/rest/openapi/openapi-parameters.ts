import { ENVELOPE_HEADER } from '../../bodies/envelope-choice.js';
import { PRIORITY_HEADER, TIMEOUT_HEADER } from '../../request-knobs/knob-values.js';
import { MAX_SAFE_INTEGER, schemaRef, type JsonSchema } from './schemas/json-schema.js';

/** The header of the binary tensor extension, as the protocol spells it. */
const HEADER_LENGTH = 'Inference-Header-Content-Length';

const ENVELOPES = 'an envelope reads the body and writes the answer instead of the model’s handler seeing them: json, body, kserve, kservev2, or one a plugin adds';

function pathParameter(name: string, description: string, schema: JsonSchema): JsonSchema {
  return { name, in: 'path', required: true, description, schema };
}

/** The parameters routes share (`components/parameters`): path parameters, Sluice's request headers, the envelope. */
export function componentParameters(): Record<string, JsonSchema> {
  return {
    Model: pathParameter('model', 'A registered model.', schemaRef('ModelName')),
    ModelOrWorkflow: pathParameter('model', 'A registered model, or a registered workflow of that name (OIP tensors in and out of the workflow).', schemaRef('ModelName')),
    Version: pathParameter('version', 'A version of the model.', schemaRef('ModelVersion')),
    VersionOrAll: pathParameter('version', 'A version of the model, or `all` for every version.', { anyOf: [schemaRef('ModelVersion'), { type: 'string', enum: ['all'] }] }),
    Workflow: pathParameter('workflow', 'A registered workflow.', schemaRef('WorkflowName')),
    Priority: {
      name: PRIORITY_HEADER,
      in: 'header',
      description: 'The request’s priority level: 1 is the highest, up to the model’s priorityLevels (docs/batching.md). On a workflow route, each of its model calls gets it.',
      schema: schemaRef('PriorityLevel'),
    },
    TimeoutMs: {
      name: TIMEOUT_HEADER,
      in: 'header',
      description: 'The request’s own timeout in milliseconds while it is queued (the model’s queuePolicy says what happens when it passes); on a workflow route, the whole run’s deadline.',
      schema: { type: 'integer', minimum: 1, maximum: MAX_SAFE_INTEGER },
    },
    Envelope: {
      name: ENVELOPE_HEADER,
      in: 'header',
      description: `The envelope of the request, before the model’s own envelope: ${ENVELOPES}.`,
      schema: { type: 'string' },
    },
    EnvelopeQuery: {
      name: 'envelope',
      in: 'query',
      description: `The envelope of the request, before the ${ENVELOPE_HEADER} header and the model’s own envelope: ${ENVELOPES}.`,
      schema: { type: 'string' },
    },
    InferenceHeaderContentLength: {
      name: HEADER_LENGTH,
      in: 'header',
      description: 'Binary tensor extension: the first this many bytes of the body are the JSON header (an OipInferRequest), the rest the inputs’ bytes.',
      schema: { type: 'integer', minimum: 0 },
    },
  };
}

/** The answer headers routes share (`components/headers`). */
export function componentHeaders(): Record<string, JsonSchema> {
  return {
    RetryAfter: { description: 'Seconds to wait before trying again (a full queue).', schema: { type: 'integer', minimum: 0 } },
    WwwAuthenticate: { description: 'The Bearer challenge (RFC 6750), with error="invalid_token" when a credential was sent and refused.', schema: { type: 'string' } },
    InferenceHeaderContentLength: { description: 'Binary tensor extension: the first this many bytes are the JSON header (an OipInferResponse), the rest the binary outputs’ bytes.', schema: { type: 'integer', minimum: 0 } },
  };
}

/** The component header names as answers carry them. */
export const HEADER_NAMES: Readonly<Record<string, string>> = {
  RetryAfter: 'Retry-After',
  WwwAuthenticate: 'WWW-Authenticate',
  InferenceHeaderContentLength: HEADER_LENGTH,
};
