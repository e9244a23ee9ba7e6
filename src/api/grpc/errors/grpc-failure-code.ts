import { isSluiceError, type ErrorCode } from '../../../sdk/errors/index.js';
import { GRPC_STATUS } from '../../errors/error-mapping.js';
import { GrpcWireError } from '../transport/grpc-wire-error.js';

/**
 * The Sluice error code a failed call is counted under in `sluice_errors_total`: the Sluice error it
 * failed with (the status errors Sluice sends carry it as their cause), the code the transport gave a
 * status it answered itself, or, for a call whose client went away (CANCELLED, nothing answered),
 * `SLUICE_REQUEST_INVALID`, as for an HTTP client that leaves.
 */
export function grpcFailureCode(code: number, error: unknown): ErrorCode {
  if (isSluiceError(error)) return error.code;
  const cause = (error as { cause?: unknown } | null | undefined)?.cause;
  if (isSluiceError(cause)) return cause.code;
  if (error instanceof GrpcWireError) return error.sluiceCode;
  return code === GRPC_STATUS.CANCELLED ? 'SLUICE_REQUEST_INVALID' : 'SLUICE_INTERNAL';
}
