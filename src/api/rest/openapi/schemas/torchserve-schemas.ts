import { closedObject, listOf, schemaRef, type JsonSchema } from './json-schema.js';

/** A value one input takes in `{"inputs": {name: value}}`. */
const INPUT_VALUE: JsonSchema = { anyOf: [schemaRef('TensorData'), { type: 'number' }, { type: 'boolean' }, { type: 'string' }] };

/** The TorchServe inference bodies: the health check, and what the built-in handlers read and answer. */
export function torchServeSchemas(): Record<string, JsonSchema> {
  return {
    Ping: closedObject('Healthy when every registered version has at least its minimum of workers.', { status: { type: 'string', enum: ['Healthy', 'Unhealthy'] } }),
    PredictionsRequest: {
      description:
        'A JSON body, read by the model’s handler (or envelope). The built-in passthrough and classifier handlers take one of the first four forms; another handler reads what it documents (text-classifier: a string or {"text": "…"}).',
      anyOf: [schemaRef('TensorData'), schemaRef('HandlerDataRequest'), schemaRef('HandlerInputsRequest'), schemaRef('KServeV1Request'), { description: 'What another handler reads.' }],
    },
    HandlerDataRequest: {
      description: 'The data of a single-input model (the same as a bare list).',
      type: 'object',
      required: ['data'],
      properties: { data: schemaRef('TensorData') },
    },
    HandlerInputsRequest: {
      description: 'One entry per input, by name, for a model with several inputs; or the Open Inference Protocol’s input tensors.',
      type: 'object',
      required: ['inputs'],
      properties: {
        inputs: { anyOf: [{ type: 'object', additionalProperties: INPUT_VALUE }, { type: 'array', minItems: 1, items: schemaRef('OipInferInput') }] },
      },
    },
    PredictionsAnswer: {
      description:
        'What the model’s handler answers. passthrough: the one output’s values, or {name: values} for several outputs; classifier: {label, probabilities} per instance (a list for a batch); another handler answers what it documents.',
      anyOf: [
        schemaRef('OutputTensorData'),
        { type: 'object', additionalProperties: schemaRef('OutputTensorData') },
        schemaRef('Classification'),
        listOf(schemaRef('Classification')),
        { description: 'What another handler answers.' },
      ],
    },
    Classification: closedObject('The classifier handler’s answer for one instance, with the names of the manifest’s labels file (class indices without one).', {
      label: { description: 'The most probable class.', type: 'string' },
      probabilities: { description: 'Each class’s probability.', type: 'object', additionalProperties: { type: 'number' } },
    }),
  };
}
