import type { AnswerDoc, RequestBodyDoc, RouteDoc } from './route-doc.js';
import { schemaRef } from './schemas/json-schema.js';
import { DESCRIPTION_ROUTES } from './description-routes.js';

/** What a request that reaches a model can be refused or fail with. */
const INFERENCE_ERRORS = [400, 404, 413, 415, 500, 503, 504];
const HEADER_KNOBS = ['Priority', 'TimeoutMs'];

function json(schema: string, description: string): AnswerDoc {
  return { description, content: { 'application/json': schemaRef(schema) } };
}

const PREDICTIONS_BODY: RequestBodyDoc = {
  description:
    'Read by the model’s handler (or envelope): JSON (also when sent as text/plain or form data, as curl -d sends it), bytes such as an image, or a multipart form (curl -F data=@kitten.jpg): each data or body part a request of the handler (several answer a list), the other fields its parameters.',
  required: true,
  content: {
    'application/json': schemaRef('PredictionsRequest'),
    'multipart/form-data': { type: 'object', properties: { data: schemaRef('Bytes'), body: schemaRef('Bytes') }, additionalProperties: { type: 'string' } },
    'application/octet-stream': schemaRef('Bytes'),
    '*/*': schemaRef('Bytes'),
  },
};

const PREDICTIONS_ANSWER: AnswerDoc = {
  description: 'The model’s handler’s (or envelope’s) answer.',
  content: { 'application/json': schemaRef('PredictionsAnswer'), '*/*': schemaRef('Bytes') },
};

const OIP_INFER_BODY: RequestBodyDoc = {
  description: 'JSON (also when sent as text/plain or form data), or with the Inference-Header-Content-Length header a JSON header followed by binary tensors.',
  required: true,
  content: { 'application/json': schemaRef('OipInferRequest'), 'application/octet-stream': schemaRef('OipBinaryInferRequest') },
};

const OIP_INFER_ANSWER: AnswerDoc = {
  description: 'The outputs asked for; binary (with its own Inference-Header-Content-Length) when an output was asked for as binary data.',
  content: { 'application/json': schemaRef('OipInferResponse'), 'application/octet-stream': schemaRef('OipBinaryInferResponse') },
  headers: ['InferenceHeaderContentLength'],
};

/** A readiness answer: 200 ready, 503 not (or the error of a server shutting down). */
function readiness(schema: string): Readonly<Record<string, AnswerDoc>> {
  return {
    '200': json(schema, 'Ready.'),
    '503': { description: 'Not ready.', content: { 'application/json': { anyOf: [schemaRef(schema), schemaRef('OipError')] } } },
  };
}

/** TorchServe's prediction routes, as POST. */
const PREDICTIONS_ROUTES: readonly RouteDoc[] = [
  {
    method: 'post',
    path: '/predictions/{model}',
    operationId: 'predict',
    summary: 'Predict with the default version; the model’s handler reads the body',
    tag: 'TorchServe',
    parameters: [...HEADER_KNOBS, 'Envelope', 'EnvelopeQuery'],
    body: PREDICTIONS_BODY,
    answers: { '200': PREDICTIONS_ANSWER },
    errors: INFERENCE_ERRORS,
  },
  {
    method: 'post',
    path: '/predictions/{model}/{version}',
    operationId: 'predictVersion',
    summary: 'Predict with a given version',
    tag: 'TorchServe',
    parameters: [...HEADER_KNOBS, 'Envelope', 'EnvelopeQuery'],
    body: PREDICTIONS_BODY,
    answers: { '200': PREDICTIONS_ANSWER },
    errors: INFERENCE_ERRORS,
  },
  {
    method: 'post',
    path: '/wfpredict/{workflow}',
    operationId: 'runWorkflow',
    summary: 'Run a workflow: a JSON object of its inputs (or the whole body as its only input)',
    tag: 'Workflows',
    parameters: HEADER_KNOBS,
    query: [
      { name: 'debug', description: 'Answer {outputs, debug} with per-node timings and the skipped nodes.', schema: { type: 'boolean', default: false } },
      {
        name: 'progress',
        description:
          'What a streamed run (Accept: text/event-stream or application/x-ndjson) sends before its result: calls, each finished forEach call; nodes, also each node as it settles ({node, status, outputs}); nested, also the nodes inside sub-workflows, named by their path (outer.inner).',
        schema: { type: 'string', enum: ['calls', 'nodes', 'nested'], default: 'calls' },
      },
    ],
    body: {
      description: 'The workflow’s inputs.',
      required: false,
      content: { 'application/json': schemaRef('WorkflowRunRequest'), 'application/octet-stream': schemaRef('Bytes'), '*/*': schemaRef('Bytes') },
    },
    answers: { '200': json('WorkflowRunAnswer', 'The workflow’s outputs.') },
    errors: INFERENCE_ERRORS,
  },
];

/** The same route for PUT, as `curl -T file` sends a file and TorchServe takes it. */
function asPut(route: RouteDoc): RouteDoc {
  return { ...route, method: 'put', operationId: `${route.operationId}Put`, summary: `${route.summary} (PUT, as curl -T sends a file)` };
}

/** Every route of the inference port. */
export const INFERENCE_ROUTES: readonly RouteDoc[] = [
  ...DESCRIPTION_ROUTES,
  {
    method: 'get',
    path: '/ping',
    operationId: 'ping',
    summary: 'Health: Healthy when every registered version has at least its minimum of workers',
    tag: 'TorchServe',
    access: 'open',
    answers: {
      '200': json('Ping', 'Healthy.'),
      '500': { description: 'Unhealthy: a version lacks workers.', content: { 'application/json': { anyOf: [schemaRef('Ping'), schemaRef('TorchServeError')] } } },
    },
    errors: [],
  },
  ...PREDICTIONS_ROUTES,
  ...PREDICTIONS_ROUTES.map(asPut),
  {
    method: 'get',
    path: '/v1/models',
    operationId: 'kserveV1ListModels',
    summary: 'KServe v1 model list',
    tag: 'KServe v1',
    answers: { '200': json('KServeV1ModelList', 'Every registered model, by name.') },
    errors: [],
  },
  {
    method: 'get',
    path: '/v1/models/{model}',
    operationId: 'kserveV1ModelStatus',
    summary: 'KServe v1 model status',
    tag: 'KServe v1',
    answers: { '200': json('KServeV1ModelStatus', 'The default version’s status.') },
    errors: [404],
  },
  {
    method: 'post',
    path: '/v1/models/{model}:predict',
    operationId: 'kserveV1Predict',
    summary: 'KServe v1 predict: {instances} in, {predictions} out, each instance through the model’s handler',
    tag: 'KServe v1',
    parameters: HEADER_KNOBS,
    body: { description: 'Read as JSON whatever its Content-Type (UTF-8).', required: true, content: { 'application/json': schemaRef('KServeV1Request') } },
    answers: { '200': json('KServeV1Answer', 'One prediction per instance.') },
    errors: INFERENCE_ERRORS,
  },
  {
    method: 'get',
    path: '/v2',
    operationId: 'oipServerMetadata',
    summary: 'OIP server metadata',
    tag: 'Open Inference Protocol',
    answers: { '200': json('OipServerMetadata', 'The server.') },
    errors: [],
  },
  {
    method: 'get',
    path: '/v2/health/live',
    operationId: 'oipServerLive',
    summary: 'OIP liveness',
    tag: 'Open Inference Protocol',
    access: 'open',
    answers: { '200': json('OipLiveness', 'Live.') },
    errors: [],
  },
  {
    method: 'get',
    path: '/v2/health/ready',
    operationId: 'oipServerReady',
    summary: 'OIP readiness: ready when every registered version is',
    tag: 'Open Inference Protocol',
    access: 'open',
    answers: readiness('OipServerReadiness'),
    errors: [],
  },
  {
    method: 'get',
    path: '/v2/models/{model}',
    operationId: 'oipModelMetadata',
    summary: 'OIP model metadata (default version)',
    tag: 'Open Inference Protocol',
    answers: { '200': json('OipModelMetadata', 'The default version’s metadata.') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/v2/models/{model}/versions/{version}',
    operationId: 'oipModelVersionMetadata',
    summary: 'OIP model metadata',
    tag: 'Open Inference Protocol',
    answers: { '200': json('OipModelMetadata', 'The version’s metadata.') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/v2/models/{model}/ready',
    operationId: 'oipModelReady',
    summary: 'OIP model readiness (default version)',
    tag: 'Open Inference Protocol',
    answers: readiness('OipModelReadiness'),
    errors: [404],
  },
  {
    method: 'get',
    path: '/v2/models/{model}/versions/{version}/ready',
    operationId: 'oipModelVersionReady',
    summary: 'OIP model readiness',
    tag: 'Open Inference Protocol',
    answers: readiness('OipModelReadiness'),
    errors: [404],
  },
  {
    method: 'post',
    path: '/v2/models/{model}/infer',
    operationId: 'oipInfer',
    summary: 'OIP inference with the default version, or with the workflow of that name',
    tag: 'Open Inference Protocol',
    pathParameters: { model: 'ModelOrWorkflow' },
    parameters: [...HEADER_KNOBS, 'InferenceHeaderContentLength'],
    body: OIP_INFER_BODY,
    answers: { '200': OIP_INFER_ANSWER },
    errors: INFERENCE_ERRORS,
  },
  {
    method: 'post',
    path: '/v2/models/{model}/versions/{version}/infer',
    operationId: 'oipInferVersion',
    summary: 'OIP inference with a given version (of a workflow: its own version)',
    tag: 'Open Inference Protocol',
    pathParameters: { model: 'ModelOrWorkflow' },
    parameters: [...HEADER_KNOBS, 'InferenceHeaderContentLength'],
    body: OIP_INFER_BODY,
    answers: { '200': OIP_INFER_ANSWER },
    errors: INFERENCE_ERRORS,
  },
];
