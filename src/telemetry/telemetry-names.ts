import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';

/**
 * Every span name Sluice creates. HTTP server spans are named `<METHOD> <route>` as the HTTP semantic
 * conventions ask; gRPC server spans `<service>/<method>` as the RPC conventions ask.
 */
export const SPAN = {
  /** Checking the caller's credentials (auth plugins). */
  auth: 'auth',
  /** Splitting a request body into the handler's requests with its envelope (`json`, `kservev2`, …). */
  envelopeDecode: 'envelope.decode',
  /** From enqueue in the model's scheduler to the start of the batch that runs the request. */
  queueWait: 'queue.wait',
  /** The model handler's `preprocess` for one request. */
  preprocess: 'preprocess',
  /** The model handler's `postprocess` for one request. */
  postprocess: 'postprocess',
  /** One batch run on one instance; linked to every request span it served. */
  batchExecute: 'batch.execute',
  /** One workflow run. */
  workflowRun: 'workflow.run',
  /** Prefix of the span of one workflow node: `workflow.node <id>`. */
  workflowNode: 'workflow.node',
  /** An outgoing download of a model archive. */
  modelDownload: 'model.download',
} as const;

/** Attribute keys: OpenTelemetry semantic conventions where they exist, `sluice.*` for Sluice's own. */
export const ATTR = {
  httpRequestMethod: ATTR_HTTP_REQUEST_METHOD,
  httpResponseStatusCode: ATTR_HTTP_RESPONSE_STATUS_CODE,
  httpRoute: ATTR_HTTP_ROUTE,
  urlPath: ATTR_URL_PATH,
  urlScheme: ATTR_URL_SCHEME,
  serverPort: ATTR_SERVER_PORT,
  clientAddress: ATTR_CLIENT_ADDRESS,
  userAgent: ATTR_USER_AGENT_ORIGINAL,
  errorType: ATTR_ERROR_TYPE,
  // The RPC conventions are still incubating in the semantic-conventions package, so they are spelled here.
  rpcSystem: 'rpc.system',
  rpcService: 'rpc.service',
  rpcMethod: 'rpc.method',
  rpcGrpcStatusCode: 'rpc.grpc.status_code',

  requestId: 'sluice.request_id',
  errorCode: 'sluice.error.code',
  /** The auth provider that checked a request (`token-auth`). */
  authProvider: 'sluice.auth.provider',
  /** The envelope that decoded a request (`json`). */
  envelope: 'sluice.envelope',
  model: 'sluice.model',
  modelVersion: 'sluice.model.version',
  batchSize: 'sluice.batch.size',
  batchRows: 'sluice.batch.rows',
  instance: 'sluice.instance',
  device: 'sluice.device',
  executionProvider: 'sluice.execution_provider',
  priority: 'sluice.priority',
  workflow: 'sluice.workflow',
  workflowNodeId: 'sluice.workflow.node.id',
  workflowNodeKind: 'sluice.workflow.node.kind',
  workflowNodeAttempts: 'sluice.workflow.node.attempts',
  workflowNodeStatus: 'sluice.workflow.node.status',
  workflowNodeSkipped: 'sluice.workflow.node.skipped',
  workflowNodeFailed: 'sluice.workflow.node.failed',
  workflowNodeReason: 'sluice.workflow.node.reason',
  workflowForEachSize: 'sluice.workflow.node.for_each.size',
  workflowDepth: 'sluice.workflow.depth',
  downloadUrl: 'url.full',
} as const;

/** The instrumentation scope of every tracer and meter Sluice creates. */
export const INSTRUMENTATION_SCOPE = 'sluice';

/** The header a request id is read from and echoed in. */
export const REQUEST_ID_HEADER = 'x-request-id';
