import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';
import type { Logger } from '../../../common/logger.js';
import { asSluiceError, grpcStatusErrorOf } from './grpc-status-error.js';
import { callPathOf } from './grpc-call.js';

/** The one place where errors of a gRPC port become call statuses (see {@link grpcStatusErrorOf}). */
@Catch()
export class GrpcErrorFilter implements RpcExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const error = asSluiceError(exception);
    if (error.category === 'INTERNAL') {
      this.logger.error('call failed', { method: callPathOf(host.getArgByIndex(2)), code: error.code, error: exception });
    }
    return throwError(() => grpcStatusErrorOf(error));
  }
}
