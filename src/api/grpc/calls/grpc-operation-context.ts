import type { Context } from '@opentelemetry/api';
import type { PartialSink } from '../../../partials/partial-sink.js';
import type { RequestBudget } from '../../../budget/request-budget.js';
import type { OperationContext } from '../../operations/operation-context.js';
import { callBudget, type GrpcCall } from './grpc-call.js';
import { callTraceContext } from './grpc-call-scope.js';

/**
 * The operation context of one request of a gRPC call: api `grpc`, the call's trace context, and
 * gathering (the calls an HTTP/2 connection delivers in one read share a batch). Its budget
 * ({@link callBudget}) is made from the call when the operation first reads it, once, as REST's is, so a
 * bad knob is refused at the same step on both transports.
 */
class GrpcOperationContext implements OperationContext {
  readonly api = 'grpc';
  readonly gather = true;
  readonly traceContext: Context | undefined;
  private made: RequestBudget | undefined;
  private release: (() => void) | undefined;

  constructor(
    private readonly call: GrpcCall,
    readonly partials: PartialSink | undefined,
  ) {
    this.traceContext = callTraceContext(call);
  }

  get budget(): RequestBudget {
    if (this.made === undefined) {
      const { budget, dispose } = callBudget(this.call);
      this.made = budget;
      this.release = dispose;
    }
    return this.made;
  }

  /** Lets go of the call's cancellation on this request's behalf, once it is answered. */
  dispose(): void {
    this.release?.();
  }
}

/**
 * Runs `work` for one request of `call` with its operation context, letting go of the budget's hold on the
 * call once `work` settles; `partials` where the call streams intermediate answers.
 */
export async function withCallContext<T>(call: GrpcCall, work: (context: OperationContext) => Promise<T>, partials?: PartialSink): Promise<T> {
  const context = new GrpcOperationContext(call, partials);
  try {
    return await work(context);
  } finally {
    context.dispose();
  }
}
