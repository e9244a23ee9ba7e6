import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import type { AuthProvider, GuardedApi } from '../../../plugins/sdk/auth.js';
import { callPathOf, metadataText } from './grpc-call.js';

/** Health checks stay open to load balancers, which carry no credentials. */
const UNGUARDED_PREFIX = '/grpc.health.v1.Health/';

/**
 * Runs the port's auth provider before any handler: the provider sees the call as `transport: 'grpc'`,
 * method `POST`, the method path, and reads metadata (`authorization: Bearer …`) as headers. A refusal is
 * the provider's `SluiceError`, answered UNAUTHENTICATED or PERMISSION_DENIED.
 */
export class GrpcAuthGuard implements CanActivate {
  constructor(
    private readonly api: GuardedApi,
    private readonly provider: AuthProvider,
  ) {}

  /** The provider's name, for the auth span. */
  get providerName(): string {
    return this.provider.name;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const path = callPathOf(context.getArgByIndex(2));
    if (path.startsWith(UNGUARDED_PREFIX)) return true;
    const metadata = context.switchToRpc().getContext<Metadata>();
    await this.provider.authenticate({
      api: this.api,
      transport: 'grpc',
      method: 'POST',
      path,
      header: (name) => metadataText(metadata, name.toLowerCase()),
    });
    return true;
  }
}
