import type { Metadata } from '@grpc/grpc-js';

/** A call status the transport itself answers (framing, limits, deadlines, unknown methods). */
export class GrpcWireError extends Error {
  constructor(
    /** The gRPC status code. */
    readonly code: number,
    /** The status message, sent as `grpc-message`. */
    readonly details: string,
    /** Trailing metadata to send with the status. */
    readonly metadata?: Metadata,
  ) {
    super(details);
    this.name = 'GrpcWireError';
  }
}
