import type { ErrorCategory, ErrorCode } from '../../sdk/errors/index.js';

/** gRPC status codes (numeric values from the gRPC specification). */
export const GRPC_STATUS = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

const HTTP_STATUS_BY_CATEGORY: Readonly<Record<ErrorCategory, number>> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  FAILED_PRECONDITION: 409,
  RESOURCE_EXHAUSTED: 429,
  DEADLINE_EXCEEDED: 504,
  UNAVAILABLE: 503,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
};

/** Codes whose HTTP status is more specific than their category's. */
const HTTP_STATUS_BY_CODE: Partial<Readonly<Record<ErrorCode, number>>> = {
  SLUICE_REQUEST_TOO_LARGE: 413,
  SLUICE_MULTIPART_PART_TOO_LARGE: 413,
  // Not 429 (the category's): it is no rate limit, and retrying would not help; the request must change.
  SLUICE_RESPONSE_TOO_LARGE: 400,
  SLUICE_REQUEST_UNSUPPORTED_MEDIA_TYPE: 415,
  SLUICE_METHOD_NOT_ALLOWED: 405,
  SLUICE_MODEL_LOAD_FAILED: 500,
  SLUICE_HANDLER_FAILED: 500,
};

const GRPC_STATUS_BY_CATEGORY: Readonly<Record<ErrorCategory, number>> = {
  INVALID_ARGUMENT: GRPC_STATUS.INVALID_ARGUMENT,
  UNAUTHENTICATED: GRPC_STATUS.UNAUTHENTICATED,
  PERMISSION_DENIED: GRPC_STATUS.PERMISSION_DENIED,
  NOT_FOUND: GRPC_STATUS.NOT_FOUND,
  ALREADY_EXISTS: GRPC_STATUS.ALREADY_EXISTS,
  FAILED_PRECONDITION: GRPC_STATUS.FAILED_PRECONDITION,
  RESOURCE_EXHAUSTED: GRPC_STATUS.RESOURCE_EXHAUSTED,
  DEADLINE_EXCEEDED: GRPC_STATUS.DEADLINE_EXCEEDED,
  UNAVAILABLE: GRPC_STATUS.UNAVAILABLE,
  UNIMPLEMENTED: GRPC_STATUS.UNIMPLEMENTED,
  INTERNAL: GRPC_STATUS.INTERNAL,
};

/**
 * Faults an HTTP port answers before a request reaches a route, where HTTP has a status of its own for
 * them: headers over Node's limit (431 Request Header Fields Too Large) and a request that did not arrive
 * whole in time (408 Request Timeout). Their Sluice codes are those of the same faults elsewhere.
 */
export type HttpTransportFault = 'headers-too-large' | 'receive-timeout';

const HTTP_STATUS_BY_FAULT: Readonly<Record<HttpTransportFault, number>> = {
  'headers-too-large': 431,
  'receive-timeout': 408,
};

/**
 * Faults of a gRPC call that the transport answers with the status gRPC implementations answer them
 * with (grpc-js's, which clients and interop tests expect) rather than the category's: a call that
 * cannot be read (a truncated or undecodable message, a bad `grpc-timeout`, a compressed message without
 * `grpc-encoding`) is `INTERNAL`; a call the method cannot take (a method no service has, several
 * messages to a unary method, a compression the server does not decompress) is `UNIMPLEMENTED`.
 */
export type GrpcTransportFault = 'unreadable-call' | 'unsupported-call';

const GRPC_STATUS_BY_FAULT: Readonly<Record<GrpcTransportFault, number>> = {
  'unreadable-call': GRPC_STATUS.INTERNAL,
  'unsupported-call': GRPC_STATUS.UNIMPLEMENTED,
};

/**
 * The HTTP status for an error: the transport fault's status when the port refused the request itself,
 * else its code's override, else its category's.
 */
export function httpStatusOf(code: ErrorCode, category: ErrorCategory, fault?: HttpTransportFault): number {
  if (fault !== undefined) return HTTP_STATUS_BY_FAULT[fault];
  return HTTP_STATUS_BY_CODE[code] ?? HTTP_STATUS_BY_CATEGORY[category];
}

/** The gRPC status code for an error category, or for the transport fault that refused the call. */
export function grpcStatusOf(category: ErrorCategory, fault?: GrpcTransportFault): number {
  if (fault !== undefined) return GRPC_STATUS_BY_FAULT[fault];
  return GRPC_STATUS_BY_CATEGORY[category];
}
