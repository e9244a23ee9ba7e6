import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';
import type { Logger } from '../../../sdk/logging/logger.js';
import { grpcFailureOf } from './grpc-status-error.js';
import { callPathOf } from '../calls/grpc-call.js';
import { callTraceContext } from '../calls/grpc-call-scope.js';
import { traceLogFields } from '../../../telemetry/index.js';

/** The one place where errors of a gRPC handler become call statuses (see {@link grpcFailureOf}). */
@Catch()
export class GrpcErrorFilter implements RpcExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const call: unknown = host.getArgByIndex(2);
    const trace = typeof call === 'object' && call !== null ? traceLogFields(callTraceContext(call)) : {};
    const failure = grpcFailureOf(exception, this.logger, callPathOf(call), trace);
    return throwError(() => failure);
  }
}
