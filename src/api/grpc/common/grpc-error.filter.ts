import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';
import type { Logger } from '../../../common/logger.js';
import { grpcFailureOf } from './grpc-status-error.js';
import { callPathOf } from './grpc-call.js';

/** The one place where errors of a gRPC handler become call statuses (see {@link grpcFailureOf}). */
@Catch()
export class GrpcErrorFilter implements RpcExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    const failure = grpcFailureOf(exception, this.logger, callPathOf(host.getArgByIndex(2)));
    return throwError(() => failure);
  }
}
