import type { QueryDoc, RouteDoc } from './route-doc.js';

const WORKER_QUERY: readonly QueryDoc[] = [
  { name: 'min_worker', type: 'integer', description: 'Minimum workers (instances); the version is scaled to it' },
  { name: 'max_worker', type: 'integer', description: 'Maximum workers; must be >= min_worker' },
  { name: 'synchronous', type: 'boolean', description: 'Accepted for TorchServe compatibility; scaling is always immediate' },
  { name: 'timeout', type: 'integer', description: 'Accepted for TorchServe compatibility' },
];

/** Every route of the management port. */
export const MANAGEMENT_ROUTES: readonly RouteDoc[] = [
  { method: 'options', path: '/', summary: 'This OpenAPI description', tag: 'Description' },
  { method: 'get', path: '/api-description', summary: 'This OpenAPI description', tag: 'Description' },
  {
    method: 'post',
    path: '/models',
    summary: 'Register a model from the model store or an allowed URL',
    tag: 'Models',
    query: [
      { name: 'url', type: 'string', required: true, description: 'A model-store name (directory or .sluice archive) or a URL matching allowedUrls' },
      { name: 'model_name', type: 'string', description: "Name to register under (default: the manifest's)" },
      { name: 'batch_size', type: 'integer', description: 'Largest batch (default: the manifest\'s batching.maxBatchSize)' },
      { name: 'max_batch_delay', type: 'number', description: 'Batch delay in milliseconds, fractions allowed (0.5)' },
      { name: 'initial_workers', type: 'integer', description: "Workers to start (default: the manifest's workers.min)" },
      { name: 'synchronous', type: 'boolean', description: 'true (default): answer 200 once loaded; false: answer 202 and load in the background' },
      { name: 'response_timeout', type: 'integer', description: 'Response timeout in seconds' },
      { name: 'preferred_batch_sizes', type: 'string', description: 'Preferred batch sizes, comma-separated' },
      { name: 'priority_levels', type: 'integer', description: 'Priority levels requests may use (1 = highest)' },
      { name: 'default_priority', type: 'integer', description: 'Priority of requests that give none' },
      { name: 'queue_policy', type: 'string', description: 'reject or delay: what happens to a queued request past its own timeout' },
      { name: 'preserve_ordering', type: 'boolean', description: 'Answer in arrival order' },
      { name: 'job_queue_size', type: 'integer', description: 'Requests that may wait' },
    ],
  },
  {
    method: 'get',
    path: '/models',
    summary: 'List registered models',
    tag: 'Models',
    query: [
      { name: 'limit', type: 'integer', description: 'Page size (default 100)' },
      { name: 'next_page_token', type: 'string', description: 'Token from the previous page' },
    ],
  },
  { method: 'get', path: '/models/{model}', summary: 'Describe the default version', tag: 'Models' },
  { method: 'get', path: '/models/{model}/{version}', summary: 'Describe a version, or every version with "all"', tag: 'Models' },
  { method: 'put', path: '/models/{model}', summary: 'Scale the default version', tag: 'Models', query: WORKER_QUERY },
  { method: 'put', path: '/models/{model}/{version}', summary: 'Scale a version', tag: 'Models', query: WORKER_QUERY },
  { method: 'delete', path: '/models/{model}', summary: 'Unregister every version of a model', tag: 'Models' },
  { method: 'delete', path: '/models/{model}/{version}', summary: 'Unregister a version', tag: 'Models' },
  { method: 'put', path: '/models/{model}/{version}/set-default', summary: 'Make a version the default', tag: 'Models' },
  {
    method: 'post',
    path: '/workflows',
    summary: 'Register (or replace) a workflow from the workflow store or an allowed URL',
    tag: 'Workflows',
    query: [
      { name: 'url', type: 'string', required: true, description: 'A workflow-store name (name.yaml or a directory with workflow.yaml) or an allowed URL' },
      { name: 'workflow_name', type: 'string', description: "Name to register under (default: the file's metadata.name)" },
      { name: 'handler', type: 'string', description: 'For a TorchServe workflow spec: the module in the workflow store exporting its function nodes' },
    ],
  },
  { method: 'get', path: '/workflows', summary: 'List registered workflows', tag: 'Workflows' },
  { method: 'get', path: '/workflows/{workflow}', summary: 'Describe a workflow: nodes, models, versions, readiness', tag: 'Workflows' },
  { method: 'delete', path: '/workflows/{workflow}', summary: 'Unregister a workflow', tag: 'Workflows' },
];
