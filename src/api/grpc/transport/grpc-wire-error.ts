import type { Metadata } from '@grpc/grpc-js';
import type { ErrorCode } from '../../../sdk/errors/index.js';

/** A call status the transport itself answers (framing, limits, deadlines, shutdown, unknown methods). */
export class GrpcWireError extends Error {
  constructor(
    /** The gRPC status code. */
    readonly code: number,
    /** The status message, sent as `grpc-message`. */
    readonly details: string,
    /**
     * The Sluice error code the failure is counted under, the one an HTTP request failing the same way
     * gets (`SLUICE_REQUEST_TOO_LARGE` for a message over the limit, say); the client sees the gRPC status.
     */
    readonly sluiceCode: ErrorCode,
    /** Trailing metadata to send with the status. */
    readonly metadata?: Metadata,
  ) {
    super(details);
    this.name = 'GrpcWireError';
  }
}
