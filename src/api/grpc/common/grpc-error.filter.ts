import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';
import type { Logger } from '../../../common/logger.js';
import { asSluiceError, grpcStatusErrorOf } from './grpc-status-error.js';
import { traceLogFields } from '../../../telemetry/logging/trace-log-fields.js';
import { callPathOf } from './grpc-call.js';
import { callTraceContext } from './grpc-trace.interceptor.js';

/** The one place where errors of a gRPC port become call statuses (see {@link grpcStatusErrorOf}). */
@Catch()
export class GrpcErrorFilter implements RpcExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const error = asSluiceError(exception);
    if (error.category === 'INTERNAL') {
      const call: unknown = host.getArgByIndex(2);
      const trace = typeof call === 'object' && call !== null ? traceLogFields(callTraceContext(call)) : {};
      this.logger.error('call failed', { ...trace, method: callPathOf(call), code: error.code, error: exception });
    }
    return throwError(() => grpcStatusErrorOf(error));
  }
}
