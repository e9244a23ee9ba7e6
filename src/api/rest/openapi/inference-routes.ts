import type { RouteDoc } from './route-doc.js';

const JSON_BODY = ['application/json'];
const ANY_BODY = ['application/json', 'application/octet-stream', '*/*'];
const OIP_BODY = ['application/json', 'application/octet-stream'];

/** Every route of the inference port. */
export const INFERENCE_ROUTES: readonly RouteDoc[] = [
  { method: 'options', path: '/', summary: 'This OpenAPI description', tag: 'Description' },
  { method: 'get', path: '/api-description', summary: 'This OpenAPI description', tag: 'Description' },
  { method: 'get', path: '/ping', summary: 'Health: 200 Healthy, or 500 Unhealthy when a model lacks workers', tag: 'TorchServe' },
  {
    method: 'post',
    path: '/predictions/{model}',
    summary: "Predict with the default version; the model's handler reads the body (a JSON array, {data}, {inputs}, or what the handler accepts)",
    tag: 'TorchServe',
    body: ANY_BODY,
  },
  { method: 'post', path: '/predictions/{model}/{version}', summary: 'Predict with a given version', tag: 'TorchServe', body: ANY_BODY },
  {
    method: 'post',
    path: '/wfpredict/{workflow}',
    summary: 'Run a workflow: a JSON object of its inputs (or the whole body as its only input); ?debug=true adds per-node timings',
    tag: 'Workflows',
    body: ANY_BODY,
    query: [{ name: 'debug', type: 'boolean', description: 'Answer {outputs, debug} with per-node timings and skipped nodes' }],
  },
  { method: 'get', path: '/v1/models/{model}', summary: 'KServe v1 model status {name, ready}', tag: 'KServe v1' },
  { method: 'post', path: '/v1/models/{model}:predict', summary: 'KServe v1 predict: {instances} in, {predictions} out', tag: 'KServe v1', body: JSON_BODY },
  { method: 'get', path: '/v2', summary: 'OIP server metadata', tag: 'Open Inference Protocol' },
  { method: 'get', path: '/v2/health/live', summary: 'OIP liveness', tag: 'Open Inference Protocol' },
  { method: 'get', path: '/v2/health/ready', summary: 'OIP readiness: 200 when every model is ready', tag: 'Open Inference Protocol' },
  { method: 'get', path: '/v2/models/{model}', summary: 'OIP model metadata (default version)', tag: 'Open Inference Protocol' },
  { method: 'get', path: '/v2/models/{model}/versions/{version}', summary: 'OIP model metadata', tag: 'Open Inference Protocol' },
  { method: 'get', path: '/v2/models/{model}/ready', summary: 'OIP model readiness (default version)', tag: 'Open Inference Protocol' },
  { method: 'get', path: '/v2/models/{model}/versions/{version}/ready', summary: 'OIP model readiness', tag: 'Open Inference Protocol' },
  {
    method: 'post',
    path: '/v2/models/{model}/infer',
    summary: 'OIP inference (default version; or the workflow of that name); binary tensors with the Inference-Header-Content-Length header',
    tag: 'Open Inference Protocol',
    body: OIP_BODY,
  },
  { method: 'post', path: '/v2/models/{model}/versions/{version}/infer', summary: 'OIP inference', tag: 'Open Inference Protocol', body: OIP_BODY },
];
