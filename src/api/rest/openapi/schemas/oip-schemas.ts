import { MAX_SAFE_INTEGER, closedObject, listOf, schemaRef, type JsonSchema } from './json-schema.js';

const NAME = { type: 'string', minLength: 1 };

/** The Open Inference Protocol (KServe v2) bodies: server and model metadata, readiness, infer requests and answers. */
export function oipSchemas(): Record<string, JsonSchema> {
  return {
    OipServerMetadata: closedObject('The server: its name, version and the protocol extensions it implements.', {
      name: { type: 'string', enum: ['sluice'] },
      version: { description: 'Sluice’s version.', type: 'string' },
      extensions: listOf({ type: 'string' }, 'Protocol extensions implemented: binary_tensor_data.'),
    }),
    OipLiveness: closedObject('Whether the server is live: true whenever it answers.', { live: { type: 'boolean' } }),
    OipServerReadiness: closedObject('Whether every registered model version is ready.', { ready: { type: 'boolean' } }),
    OipModelReadiness: closedObject('Whether a model version is ready to serve.', { name: { type: 'string' }, ready: { type: 'boolean' } }),
    OipModelMetadata: closedObject('A model version’s metadata; -1 marks a dimension of any size.', {
      name: { type: 'string' },
      versions: listOf({ type: 'string' }, 'Every registered version of the model.'),
      platform: { type: 'string', enum: ['onnxruntime_onnx'] },
      inputs: listOf(schemaRef('TensorSpec')),
      outputs: listOf(schemaRef('TensorSpec')),
    }),
    OipInferRequest: {
      description:
        'An infer request. As JSON, every input gives its `data`; with the binary tensor extension (the Inference-Header-Content-Length header), this is the JSON header and inputs may give `parameters.binary_data_size` instead, their bytes following the header in input order.',
      type: 'object',
      required: ['inputs'],
      properties: {
        id: { description: 'Echoed in the answer.', type: 'string' },
        parameters: schemaRef('OipRequestParameters'),
        inputs: { type: 'array', minItems: 1, items: schemaRef('OipInferInput') },
        outputs: listOf(schemaRef('OipRequestedOutput'), 'The outputs to answer, in this order, each once; left out or empty: every output.'),
      },
    },
    OipRequestParameters: {
      description: 'Request parameters Sluice reads; others are accepted and ignored.',
      type: 'object',
      properties: {
        priority: { ...schemaRef('PriorityLevel'), description: 'The request’s priority level, before the x-sluice-priority header.' },
        timeout: { description: 'The request’s own timeout in microseconds, before the x-sluice-timeout-ms header.', type: 'integer', minimum: 1, maximum: MAX_SAFE_INTEGER },
        binary_data_output: { description: 'Answer every output as binary data (an output’s own binary_data wins).', type: 'boolean' },
      },
    },
    OipInferInput: {
      description: 'One input tensor: its `data`, or (binary tensor extension) the size of its bytes after the JSON header; not both.',
      type: 'object',
      required: ['name', 'shape', 'datatype'],
      properties: {
        name: NAME,
        shape: schemaRef('Shape'),
        datatype: schemaRef('Datatype'),
        parameters: {
          type: 'object',
          properties: { binary_data_size: { description: 'Bytes of this input after the JSON header (BYTES elements each with a 4-byte little-endian length).', type: 'integer', minimum: 0 } },
        },
        data: schemaRef('TensorData'),
      },
      oneOf: [{ required: ['data'] }, { required: ['parameters'], properties: { parameters: { required: ['binary_data_size'] } } }],
    },
    OipRequestedOutput: {
      description: 'An output to answer. The classification extension is not implemented: `parameters.classification` is refused (400).',
      type: 'object',
      required: ['name'],
      properties: {
        name: NAME,
        parameters: {
          type: 'object',
          properties: { binary_data: { description: 'Answer this output as binary data.', type: 'boolean' } },
          not: { required: ['classification'] },
        },
      },
    },
    OipBinaryInferRequest: {
      description: 'Binary tensor extension: the JSON header (an OipInferRequest of Inference-Header-Content-Length bytes), then each input with binary_data_size, in input order (numbers little-endian; BYTES elements each prefixed with a 4-byte little-endian length).',
      type: 'string',
      format: 'binary',
    },
    OipBinaryInferResponse: {
      description: 'Binary tensor extension: the JSON header (an OipInferResponse of Inference-Header-Content-Length bytes), then the bytes of each output with binary_data_size, in output order.',
      type: 'string',
      format: 'binary',
    },
    OipInferResponse: closedObject(
      'An infer answer (as JSON, or the JSON header of a binary answer); outputs in the order asked for.',
      {
        model_name: { type: 'string' },
        model_version: { type: 'string' },
        id: { description: 'The request’s id, when it gave one.', type: 'string' },
        outputs: listOf(schemaRef('OipInferOutput')),
      },
      ['model_name', 'model_version', 'outputs'],
    ),
    OipInferOutput: {
      ...closedObject(
        'One output tensor: its `data`, or, asked for as binary data, the size of its bytes after the JSON header.',
        {
          name: NAME,
          datatype: schemaRef('Datatype'),
          shape: schemaRef('Shape'),
          data: schemaRef('OutputTensorData'),
          parameters: closedObject('', { binary_data_size: { type: 'integer', minimum: 0 } }),
        },
        ['name', 'datatype', 'shape'],
      ),
      oneOf: [{ required: ['data'] }, { required: ['parameters'] }],
    },
  };
}
