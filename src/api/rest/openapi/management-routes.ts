import { REGISTRATION_LIMITS } from '../../models/registration-limits.js';
import { DESCRIPTION_ROUTES } from './description-routes.js';
import type { AnswerDoc, QueryDoc, RouteDoc } from './route-doc.js';
import { schemaRef } from './schemas/json-schema.js';

const { maxBatchDelayMs, maxResponseTimeoutS, maxWorkers } = REGISTRATION_LIMITS;

function json(schema: string, description: string): AnswerDoc {
  return { description, content: { 'application/json': schemaRef(schema) } };
}

const DONE = json('ManagementStatus', 'Done.');

const SCALED = {
  '200': json('ManagementStatus', 'synchronous=true: the new workers are ready.'),
  '202': json('ManagementStatus', 'The new bounds are set; workers start or stop in the background.'),
};

const PAGE_QUERY: readonly QueryDoc[] = [
  { name: 'limit', description: 'Page size (empty: the default).', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
  { name: 'next_page_token', description: 'The nextPageToken of the previous page (empty: the first page).', schema: { type: 'string', pattern: '^[0-9]*$' } },
];

const WORKER_QUERY: readonly QueryDoc[] = [
  {
    name: 'min_worker',
    description: 'Workers to scale to at once; a max_worker below it, or the current maximum, rises with it. Without min_worker and max_worker, the version scales to 1 (TorchServe’s default).',
    schema: schemaRef('WorkerCount'),
  },
  { name: 'max_worker', description: 'The most workers; must be at least min_worker. Alone, below the current minimum, it lowers the minimum with it.', schema: { type: 'integer', minimum: 1, maximum: maxWorkers } },
  { name: 'synchronous', description: 'true: answer 200 once the new workers are ready; otherwise answer 202 once the new bounds are set.', schema: { type: 'boolean', default: false } },
  { name: 'timeout', description: 'TorchServe’s wait for busy workers; accepted, and ignored (named in the answer) unless -1: a removed worker always finishes its batch.', schema: { type: 'integer', minimum: -1 } },
  { name: 'number_gpu', description: 'TorchServe’s GPU count; the version’s own count changes nothing, another is accepted and ignored (named in the answer): placement is chosen at load.', schema: { type: 'integer', minimum: 0, maximum: 1024 } },
  { name: 'model_version', description: 'The version to scale, when the path names none (default: the default version).', schema: { type: 'string', minLength: 1 } },
];

const UNREGISTER_QUERY: readonly QueryDoc[] = [
  { name: 'synchronous', description: 'Accepted for TorchServe clients: the answer always comes once the model is unloaded (false is named as ignored in the answer).', schema: { type: 'boolean' } },
  { name: 'timeout', description: 'Accepted for TorchServe clients and named as ignored in the answer: running requests always finish.', schema: { type: 'integer', minimum: -1 } },
];

const DESCRIBE_QUERY: readonly QueryDoc[] = [
  { name: 'customized', description: 'Accepted for TorchServe clients; Sluice’s handlers have no custom describe step, so true is named as ignored in the x-sluice-ignored-parameters header.', schema: { type: 'boolean' } },
];

const REGISTER_QUERY: readonly QueryDoc[] = [
  { name: 'url', required: true, description: 'A model-store name (a directory or a .sluice archive), an http(s) URL of an archive, or an s3://bucket/prefix or azure://account/container/prefix URL of a model directory or archive, matching allowedUrls.', schema: { type: 'string', minLength: 1 } },
  { name: 'model_name', description: 'The name to register under (default: the manifest’s).', schema: schemaRef('ModelName') },
  { name: 'batch_size', description: 'The largest batch (default: the manifest’s batching.maxBatchSize).', schema: schemaRef('BatchSize') },
  { name: 'max_batch_delay', description: 'Batch delay in milliseconds, fractions allowed (0.25).', schema: { type: 'number', minimum: 0, maximum: maxBatchDelayMs } },
  { name: 'initial_workers', description: 'Workers to start (default: the manifest’s workers.min).', schema: schemaRef('WorkerCount') },
  { name: 'synchronous', description: 'true: answer 200 once loaded; false: answer 202 and load in the background.', schema: { type: 'boolean', default: true } },
  { name: 'response_timeout', description: 'Response timeout in seconds.', schema: { type: 'integer', minimum: 1, maximum: maxResponseTimeoutS } },
  {
    name: 'preferred_batch_sizes',
    description: 'Preferred batch sizes, comma-separated (empty for none), each once and none above the batch size.',
    schema: { type: 'array', items: schemaRef('BatchSize'), uniqueItems: true },
    explode: false,
  },
  { name: 'priority_levels', description: 'Priority levels requests may use (1 = highest).', schema: schemaRef('PriorityLevel') },
  { name: 'default_priority', description: 'The priority of requests that give none; at most priority_levels (or the manifest’s).', schema: schemaRef('PriorityLevel') },
  { name: 'queue_policy', description: 'What happens to a queued request past its own timeout.', schema: schemaRef('QueuePolicy') },
  { name: 'preserve_ordering', description: 'Answer in arrival order.', schema: { type: 'boolean' } },
  { name: 'job_queue_size', description: 'Requests that may wait.', schema: schemaRef('JobQueueSize') },
  {
    name: 'handler',
    description: 'The handler instead of the manifest’s: a Sluice handler, or a TorchServe base handler Sluice maps (image_classifier, text_classifier, also as a path such as ts/torch_handler/image_classifier.py:handle).',
    schema: { type: 'string', minLength: 1 },
  },
  { name: 'runtime', description: 'onnx, or a TorchServe runtime (python, python3, LSP, LDP), accepted and named as ignored in the answer.', schema: { type: 'string', enum: ['onnx', 'python', 'python3', 'LSP', 'LDP'] } },
  { name: 'startup_timeout', description: 'Seconds the model may take to load (its workers started); past it the registration fails.', schema: { type: 'integer', minimum: 1, maximum: maxResponseTimeoutS } },
  { name: 's3_sse_kms', description: 'Accepted for TorchServe clients; true is named as ignored in the answer (no S3 KMS step).', schema: { type: 'boolean' } },
];

/** Every route of the management port; the model routes refuse a query parameter they do not list (400). */
export const MANAGEMENT_ROUTES: readonly RouteDoc[] = [
  ...DESCRIPTION_ROUTES,
  {
    method: 'post',
    path: '/models',
    operationId: 'registerModel',
    summary: 'Register every version found at url, from the model store or an allowed URL',
    tag: 'Models',
    query: REGISTER_QUERY,
    answers: { '200': json('ManagementStatus', 'Registered and loaded.'), '202': json('ManagementStatus', 'Accepted (synchronous=false): loading in the background.') },
    errors: [400, 403, 404, 409, 500],
  },
  {
    method: 'get',
    path: '/models',
    operationId: 'listModels',
    summary: 'List registered models, a page at a time',
    tag: 'Models',
    query: PAGE_QUERY,
    answers: { '200': json('ModelList', 'A page of models.') },
    errors: [400],
  },
  {
    method: 'get',
    path: '/models/{model}',
    operationId: 'describeModel',
    summary: 'Describe the default version',
    tag: 'Models',
    query: DESCRIBE_QUERY,
    answers: { '200': json('ModelDescriptions', 'The default version (a one-element list).') },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/models/{model}/{version}',
    operationId: 'describeModelVersion',
    summary: 'Describe a version, or every version with all',
    tag: 'Models',
    pathParameters: { version: 'VersionOrAll' },
    query: DESCRIBE_QUERY,
    answers: { '200': json('ModelDescriptions', 'The version, or every version.') },
    errors: [400, 404],
  },
  {
    method: 'put',
    path: '/models/{model}',
    operationId: 'scaleModel',
    summary: 'Scale the default version (or model_version)',
    tag: 'Models',
    query: WORKER_QUERY,
    answers: SCALED,
    errors: [400, 404, 500],
  },
  {
    method: 'put',
    path: '/models/{model}/{version}',
    operationId: 'scaleModelVersion',
    summary: 'Scale a version',
    tag: 'Models',
    query: WORKER_QUERY.filter((q) => q.name !== 'model_version'),
    answers: SCALED,
    errors: [400, 404, 500],
  },
  {
    method: 'delete',
    path: '/models/{model}',
    operationId: 'unregisterModel',
    summary: 'Unregister every version of a model',
    tag: 'Models',
    query: UNREGISTER_QUERY,
    answers: { '200': DONE },
    errors: [400, 404, 409, 500],
  },
  {
    method: 'delete',
    path: '/models/{model}/{version}',
    operationId: 'unregisterModelVersion',
    summary: 'Unregister a version (not the default while others exist)',
    tag: 'Models',
    query: UNREGISTER_QUERY,
    answers: { '200': DONE },
    errors: [400, 404, 409, 500],
  },
  { method: 'put', path: '/models/{model}/{version}/set-default', operationId: 'setDefaultVersion', summary: 'Make a version the default', tag: 'Models', answers: { '200': DONE }, errors: [400, 404, 500] },
  {
    method: 'post',
    path: '/workflows',
    operationId: 'registerWorkflow',
    summary: 'Register (or replace) a workflow from the workflow store or an allowed URL',
    tag: 'Workflows',
    query: [
      { name: 'url', required: true, description: 'A workflow-store name (name.yaml, or a directory with workflow.yaml) or an allowed URL.', schema: { type: 'string', minLength: 1 } },
      { name: 'workflow_name', description: 'The name to register under (default: the file’s metadata.name).', schema: schemaRef('WorkflowName') },
      { name: 'handler', description: 'For a TorchServe workflow spec: the module in the workflow store exporting its function nodes.', schema: { type: 'string', minLength: 1 } },
    ],
    answers: { '200': json('ManagementStatus', 'Registered.') },
    errors: [400, 403, 404, 409, 500],
  },
  {
    method: 'get',
    path: '/workflows',
    operationId: 'listWorkflows',
    summary: 'List registered workflows, a page at a time',
    tag: 'Workflows',
    query: PAGE_QUERY,
    answers: { '200': json('WorkflowList', 'A page of workflows.') },
    errors: [400],
  },
  {
    method: 'get',
    path: '/workflows/{workflow}',
    operationId: 'describeWorkflow',
    summary: 'Describe a workflow: nodes, models, versions, readiness',
    tag: 'Workflows',
    answers: { '200': json('WorkflowDescriptions', 'The workflow (a one-element list).') },
    errors: [404],
  },
  {
    method: 'delete',
    path: '/workflows/{workflow}',
    operationId: 'unregisterWorkflow',
    summary: 'Unregister a workflow',
    tag: 'Workflows',
    answers: { '200': DONE },
    errors: [404, 409, 500],
  },
];
