import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { SluiceError } from '../../../sdk/errors/index.js';
import { BehaviorSubject, Observable, distinctUntilChanged, map } from 'rxjs';

const SERVICE = 'Health';

/** `HealthCheckResponse.ServingStatus` names. */
type ServingStatus = 'SERVING' | 'NOT_SERVING';

/** What the health service of one port reports on. */
export class PortHealth {
  /** True while the port serves; false once it is shutting down. */
  readonly serving = new BehaviorSubject<boolean>(true);

  constructor(
    /** The fully qualified services of the port (`inference.GRPCInferenceService`). */
    readonly services: readonly string[],
    /** Whether the port can do its work now (e.g. every model version ready). */
    readonly ready: () => boolean,
  ) {}

  /** Ends every `Watch` stream with NOT_SERVING; called when the port shuts down. */
  stop(): void {
    this.serving.next(false);
    this.serving.complete();
  }
}

/**
 * `grpc.health.v1.Health` for load balancers and `grpcurl`: the empty service name is the whole port, and
 * each service of the port answers by its full name; SERVING while the port serves and is ready.
 */
@Controller()
export class HealthController {
  constructor(@Inject(PortHealth) private readonly health: PortHealth) {}

  @GrpcMethod(SERVICE, 'Check')
  check(request: { service: string }): { status: ServingStatus } {
    this.assertKnown(request.service);
    return { status: this.status() };
  }

  /** The status now, then each change, until the client leaves or the port shuts down. */
  @GrpcMethod(SERVICE, 'Watch')
  watch(request: { service: string }): Observable<{ status: ServingStatus }> {
    this.assertKnown(request.service);
    return this.health.serving.pipe(
      map(() => this.status()),
      distinctUntilChanged(),
      map((status) => ({ status })),
    );
  }

  private status(): ServingStatus {
    return this.health.serving.getValue() && this.health.ready() ? 'SERVING' : 'NOT_SERVING';
  }

  private assertKnown(service: string): void {
    if (service !== '' && !this.health.services.includes(service)) {
      throw new SluiceError('SLUICE_ROUTE_NOT_FOUND', `this port has no service \`${service}\`; it serves ${this.health.services.join(', ')} (or "" for the whole port)`);
    }
  }
}
