import type { PartialSink } from '../../../partials/partial-sink.js';
import { clientGone } from '../../../serving/partial-handler-context.js';
import { callSignal, type GrpcCall } from './grpc-call.js';

/** What Sluice's transport adds to a call for a writer that waits: whether its buffer is full, and `'drain'`. */
interface DrainingCall {
  readonly needsDrain?: boolean;
  once?(event: 'drain', listener: () => void): unknown;
  removeListener?(event: 'drain', listener: () => void): unknown;
}

/**
 * The intermediate answers of one request of a streaming gRPC call: each handed to `emit`, which turns it
 * into the call's message and sends it. `send` waits while the call's response buffer is full (the client
 * reads slower than the work produces) and rejects once the client has cancelled the call, when
 * {@link signal} aborts too. `dispose` once the request is answered.
 */
export class GrpcPartialSink implements PartialSink {
  private watched: { readonly signal: AbortSignal; dispose(): void } | undefined;

  constructor(
    private readonly call: GrpcCall,
    private readonly emit: (answer: unknown) => void,
  ) {}

  get signal(): AbortSignal {
    return (this.watched ??= callSignal(this.call)).signal;
  }

  send(answer: unknown): Promise<void> {
    if (this.call.cancelled) return Promise.reject(clientGone());
    this.emit(answer);
    // Only Sluice's own transport says when its buffer is full; any other call is written to without waiting.
    const call = this.call as unknown as DrainingCall;
    if (call.needsDrain !== true || call.once === undefined) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const drained = (): void => {
        this.call.removeListener('cancelled', cancelled);
        resolve();
      };
      const cancelled = (): void => {
        call.removeListener?.('drain', drained);
        reject(clientGone());
      };
      call.once?.('drain', drained);
      this.call.once('cancelled', cancelled);
    });
  }

  dispose(): void {
    this.watched?.dispose();
  }
}
