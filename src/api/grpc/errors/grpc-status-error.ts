import { Metadata } from '@grpc/grpc-js';
import type { SluiceError } from '../../../sdk/errors/index.js';
import type { LogFields, Logger } from '../../../sdk/logging/logger.js';
import { grpcStatusOf } from '../../errors/error-mapping.js';
import { RETRY_AFTER_HEADER, retryAfterSecondsOf } from '../../errors/retry-after.js';
import { unexpectedError } from '../../errors/unexpected-error.js';

/** Trailing metadata entry carrying the Sluice error code of a failed call. */
export const ERROR_CODE_METADATA = 'sluice-error-code';
/** Trailing metadata entry carrying the code of the error behind a failure (a failed workflow node's cause). */
export const CAUSE_CODE_METADATA = 'sluice-cause-code';

/** What a gRPC call ends with when it fails: its code, the message as details, and trailing metadata. */
export interface GrpcStatusError extends Error {
  readonly code: number;
  readonly details: string;
  readonly metadata: Metadata;
}

/**
 * The gRPC status of an error: the code from `error-mapping.ts`, the Sluice message as details, and the
 * Sluice error code (plus `retry-after` for a full queue, and the cause's code when the error has one) in
 * the trailing metadata.
 */
export function grpcStatusErrorOf(error: SluiceError): GrpcStatusError {
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_METADATA, error.code);
  const retryAfter = retryAfterSecondsOf(error);
  if (retryAfter !== undefined) metadata.set(RETRY_AFTER_HEADER, String(retryAfter));
  const causeCode = error.details['causeCode'];
  if (typeof causeCode === 'string') metadata.set(CAUSE_CODE_METADATA, causeCode);
  return Object.assign(new Error(error.message, { cause: error }), { code: grpcStatusOf(error.category), details: error.message, metadata });
}

/**
 * The status a gRPC call fails with when `exception` ends it ({@link grpcStatusErrorOf} of it, or of
 * `SLUICE_INTERNAL` for anything that is not a Sluice error); internal errors are logged with the method and
 * the call's trace fields.
 */
export function grpcFailureOf(exception: unknown, logger: Logger, method: string, trace: LogFields = {}): GrpcStatusError {
  const error = unexpectedError(exception);
  if (error.category === 'INTERNAL') logger.error('call failed', { ...trace, method, code: error.code, error: exception });
  return grpcStatusErrorOf(error);
}
