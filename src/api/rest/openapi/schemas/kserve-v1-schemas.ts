import { closedObject, schemaRef, type JsonSchema } from './json-schema.js';

const INSTANCES: JsonSchema = { type: 'array', minItems: 1, items: schemaRef('KServeV1Instance') };

/** The KServe v1 bodies: model status, `:predict` requests and answers. */
export function kserveV1Schemas(): Record<string, JsonSchema> {
  return {
    KServeV1ModelList: closedObject('Every registered model once, sorted by name.', { models: { type: 'array', items: { type: 'string' } } }),
    KServeV1ModelStatus: closedObject('The default version’s status.', { name: { type: 'string' }, ready: { type: 'boolean' } }),
    KServeV1Request: {
      description:
        'Instances to predict, under `instances` or `inputs` (not both, even one of them null); each is a request of the model’s handler of its own, and together they may not be more than the model’s jobQueueSize.',
      type: 'object',
      properties: { instances: INSTANCES, inputs: INSTANCES },
      oneOf: [{ required: ['instances'] }, { required: ['inputs'] }],
    },
    KServeV1Instance: {
      description:
        'One instance as the model’s handler reads it. passthrough and classifier: a row of a single-input model’s data without the batch dimension, or an object with one entry per input; image-classifier: {"b64": "<base64 image>"}; text-classifier: a string or {"text": "…"}.',
    },
    KServeV1Answer: closedObject('One prediction per instance: `predictions[i]` answers `instances[i]`.', {
      predictions: { type: 'array', items: { description: 'What the model’s handler answers for one instance.' } },
    }),
  };
}
