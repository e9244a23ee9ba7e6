import type { Metadata } from '@grpc/grpc-js';
import { ERROR_CODES, type ErrorCode } from '../../../sdk/errors/index.js';
import { grpcStatusOf, type GrpcTransportFault } from '../../errors/error-mapping.js';

/**
 * A call status the transport itself answers (framing, limits, deadlines, shutdown, unknown methods). Its
 * gRPC status comes from the error mapping, as every other error's: the category of its Sluice code, or
 * the status gRPC gives the transport fault.
 */
export class GrpcWireError extends Error {
  /** The gRPC status code. */
  readonly code: number;

  constructor(
    /**
     * The Sluice error code the failure is counted under, the one an HTTP request failing the same way
     * gets (`SLUICE_REQUEST_TOO_LARGE` for a message over the limit, say); the client sees the gRPC status.
     */
    readonly sluiceCode: ErrorCode,
    /** The status message, sent as `grpc-message`. */
    readonly details: string,
    /** The transport fault, when gRPC answers it with a status other than the code's category's. */
    fault?: GrpcTransportFault,
    /** Trailing metadata to send with the status. */
    readonly metadata?: Metadata,
  ) {
    super(details);
    this.name = 'GrpcWireError';
    this.code = grpcStatusOf(ERROR_CODES[sluiceCode].category, fault);
  }
}
