import type { Metadata } from '@grpc/grpc-js';
import type { AuthProvider, GuardedApi } from '../../../sdk/auth/auth.js';
import { metadataAuthText } from './grpc-call.js';

/** Health checks stay open to load balancers, which carry no credentials. */
const UNGUARDED_PREFIX = '/grpc.health.v1.Health/';

/**
 * Runs the port's auth provider before any handler: the provider sees the call as `transport: 'grpc'`,
 * method `POST`, the method path, and reads metadata (`authorization: Bearer …`) as headers, a repeated
 * entry as its values joined with `, ` (as HTTP does), so several `authorization` entries are refused. A refusal is
 * the provider's `SluiceError`, answered UNAUTHENTICATED or PERMISSION_DENIED.
 */
export class GrpcAuthGuard {
  constructor(
    private readonly api: GuardedApi,
    private readonly provider: AuthProvider,
  ) {}

  /** The provider's name, for the auth span. */
  get providerName(): string {
    return this.provider.name;
  }

  /** False for the calls that need no credentials (health checks). */
  guards(path: string): boolean {
    return !path.startsWith(UNGUARDED_PREFIX);
  }

  /** Resolves when the provider lets the call of `path` with `metadata` through; rejects with its refusal. */
  async check(path: string, metadata: Metadata): Promise<void> {
    await this.provider.authenticate({
      api: this.api,
      transport: 'grpc',
      method: 'POST',
      path,
      header: (name) => metadataAuthText(metadata, name.toLowerCase()),
    });
  }
}
