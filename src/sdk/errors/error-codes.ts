import type { ErrorCategory } from './error-category.js';

/** What every error code declares once: its category and the TorchServe exception type it maps to. */
export interface ErrorCodeInfo {
  readonly category: ErrorCategory;
  /** The `type` field of TorchServe-style error bodies. */
  readonly type: string;
}

/**
 * Every error code Sluice can answer with. Adding a code here without documenting it in
 * `docs/errors.md` fails the test suite.
 */
export const ERROR_CODES = {
  // Requests: transport-level problems with the body or route.
  SLUICE_REQUEST_MALFORMED_JSON: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_REQUEST_TOO_LARGE: { category: 'RESOURCE_EXHAUSTED', type: 'RequestTooLargeException' },
  SLUICE_RESPONSE_TOO_LARGE: { category: 'RESOURCE_EXHAUSTED', type: 'ResponseTooLargeException' },
  SLUICE_REQUEST_INVALID: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_REQUEST_BINARY_HEADER_INVALID: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_CLIENT_GONE: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  SLUICE_MULTIPART_INVALID: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_MULTIPART_TOO_MANY_PARTS: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_MULTIPART_PART_TOO_LARGE: { category: 'RESOURCE_EXHAUSTED', type: 'RequestTooLargeException' },
  SLUICE_ROUTE_NOT_FOUND: { category: 'NOT_FOUND', type: 'ResourceNotFoundException' },
  SLUICE_METHOD_NOT_ALLOWED: { category: 'INVALID_ARGUMENT', type: 'MethodNotAllowedException' },
  // Tensors: a request's inputs do not fit the model.
  SLUICE_TENSOR_UNKNOWN_INPUT: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_TENSOR_MISSING_INPUT: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_TENSOR_UNKNOWN_OUTPUT: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_TENSOR_DATATYPE_MISMATCH: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_TENSOR_SHAPE_MISMATCH: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_TENSOR_DATA_LENGTH_MISMATCH: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_TENSOR_INVALID_VALUE: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_TENSOR_UNSUPPORTED_DATATYPE: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  // Models: registry and lifecycle.
  SLUICE_MODEL_NOT_FOUND: { category: 'NOT_FOUND', type: 'ModelNotFoundException' },
  SLUICE_MODEL_VERSION_NOT_FOUND: { category: 'NOT_FOUND', type: 'ModelVersionNotFoundException' },
  SLUICE_MODEL_ALREADY_REGISTERED: { category: 'ALREADY_EXISTS', type: 'ConflictStatusException' },
  SLUICE_MODEL_LOAD_FAILED: { category: 'INTERNAL', type: 'ModelLoadException' },
  SLUICE_MODEL_IN_USE: { category: 'FAILED_PRECONDITION', type: 'ConflictStatusException' },
  SLUICE_MODEL_DEFAULT_VERSION_IN_USE: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_MODEL_NO_WORKERS: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  SLUICE_MODEL_UNLOADING: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  // Manifests and the model store.
  SLUICE_MANIFEST_INVALID: { category: 'INVALID_ARGUMENT', type: 'InvalidModelException' },
  SLUICE_MANIFEST_NOT_FOUND: { category: 'NOT_FOUND', type: 'InvalidModelException' },
  SLUICE_ARCHIVE_INVALID: { category: 'INVALID_ARGUMENT', type: 'InvalidModelException' },
  SLUICE_ARCHIVE_UNSAFE_PATH: { category: 'INVALID_ARGUMENT', type: 'InvalidModelException' },
  SLUICE_ARCHIVE_ENTRY_TOO_LARGE: { category: 'INVALID_ARGUMENT', type: 'InvalidModelException' },
  SLUICE_MAR_UNSUPPORTED: { category: 'INVALID_ARGUMENT', type: 'InvalidModelException' },
  SLUICE_SNAPSHOT_INVALID: { category: 'INTERNAL', type: 'InternalServerException' },
  // Management API arguments.
  SLUICE_MANAGEMENT_INVALID_ARGUMENT: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_MANAGEMENT_URL_NOT_ALLOWED: { category: 'PERMISSION_DENIED', type: 'ForbiddenException' },
  SLUICE_MANAGEMENT_DOWNLOAD_FAILED: { category: 'INVALID_ARGUMENT', type: 'DownloadArchiveException' },
  // Model sources in object stores (s3://, azure://).
  SLUICE_SOURCE_NOT_FOUND: { category: 'NOT_FOUND', type: 'DownloadArchiveException' },
  SLUICE_SOURCE_ACCESS_DENIED: { category: 'PERMISSION_DENIED', type: 'DownloadArchiveException' },
  SLUICE_SOURCE_UNAVAILABLE: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  // Scheduling and execution.
  SLUICE_QUEUE_FULL: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  SLUICE_RESPONSE_TIMEOUT: { category: 'DEADLINE_EXCEEDED', type: 'RequestTimeoutException' },
  SLUICE_INFERENCE_FAILED: { category: 'INTERNAL', type: 'InternalServerException' },
  SLUICE_INSTANCE_FAILED: { category: 'INTERNAL', type: 'InternalServerException' },
  SLUICE_HANDLER_FAILED: { category: 'INTERNAL', type: 'InternalServerException' },
  SLUICE_SERVER_SHUTTING_DOWN: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  SLUICE_SERVER_STARTING: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  // Workflows: definitions, request inputs and runs.
  SLUICE_WORKFLOW_INVALID: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_WORKFLOW_NOT_FOUND: { category: 'NOT_FOUND', type: 'WorkflowNotFoundException' },
  SLUICE_WORKFLOW_IN_USE: { category: 'FAILED_PRECONDITION', type: 'ConflictStatusException' },
  SLUICE_WORKFLOW_INPUT_INVALID: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  SLUICE_WORKFLOW_NODE_FAILED: { category: 'INTERNAL', type: 'InternalServerException' },
  SLUICE_WORKFLOW_NODE_TIMEOUT: { category: 'DEADLINE_EXCEEDED', type: 'RequestTimeoutException' },
  SLUICE_WORKFLOW_DEADLINE_EXCEEDED: { category: 'DEADLINE_EXCEEDED', type: 'RequestTimeoutException' },
  SLUICE_WORKFLOW_CANCELLED: { category: 'UNAVAILABLE', type: 'ServiceUnavailableException' },
  // Authentication and authorisation (auth plugins).
  SLUICE_AUTH_MISSING_CREDENTIALS: { category: 'UNAUTHENTICATED', type: 'UnauthorizedException' },
  SLUICE_AUTH_INVALID_CREDENTIALS: { category: 'UNAUTHENTICATED', type: 'UnauthorizedException' },
  SLUICE_AUTH_EXPIRED_CREDENTIALS: { category: 'UNAUTHENTICATED', type: 'UnauthorizedException' },
  SLUICE_AUTH_FORBIDDEN: { category: 'PERMISSION_DENIED', type: 'ForbiddenException' },
  // Plugins: loading and request-time failures.
  SLUICE_PLUGIN_INVALID: { category: 'INVALID_ARGUMENT', type: 'InvalidConfigException' },
  SLUICE_PLUGIN_LOAD_FAILED: { category: 'INTERNAL', type: 'InvalidConfigException' },
  SLUICE_PLUGIN_FAILED: { category: 'INTERNAL', type: 'InternalServerException' },
  SLUICE_ENVELOPE_INVALID_BODY: { category: 'INVALID_ARGUMENT', type: 'BadRequestException' },
  // Configuration and start-up.
  SLUICE_CONFIG_INVALID: { category: 'INVALID_ARGUMENT', type: 'InvalidConfigException' },
  SLUICE_INTERNAL: { category: 'INTERNAL', type: 'InternalServerException' },
} as const satisfies Record<string, ErrorCodeInfo>;

/** A documented Sluice error code. */
export type ErrorCode = keyof typeof ERROR_CODES;
