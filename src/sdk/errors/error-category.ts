/**
 * The closed set of error categories. Every {@link SluiceError} belongs to exactly one; transports
 * (HTTP status, gRPC code) are derived from the category in `src/api/errors/error-mapping.ts` only.
 */
export const ERROR_CATEGORIES = [
  'INVALID_ARGUMENT',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'FAILED_PRECONDITION',
  'RESOURCE_EXHAUSTED',
  'DEADLINE_EXCEEDED',
  'UNAVAILABLE',
  'UNIMPLEMENTED',
  'INTERNAL',
] as const;

/** One of {@link ERROR_CATEGORIES}. */
export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];
