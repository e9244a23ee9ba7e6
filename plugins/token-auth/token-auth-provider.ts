import { bearerToken, promiseOf, type AuthPrincipal, type AuthProvider, type AuthRequest, type AuthScope, type GuardedApi } from '../../src/sdk/index.js';
import type { TokenKeyService } from './token-key-service.js';
import type { KeyType } from './token-keys.js';

/** The key each API takes: metrics has no key of its own in TorchServe, so it takes the management key. */
const KEY_FOR_API: Readonly<Record<GuardedApi, KeyType>> = { inference: 'inference', management: 'management', metrics: 'management' };

/** What a key lets its holder do. */
const SCOPES_OF_KEY: Readonly<Record<KeyType, readonly AuthScope[]>> = {
  inference: ['inference'],
  management: ['management', 'metrics'],
  api: ['api'],
};

/** The `token-auth` guard: `Authorization: Bearer <key>` with the key of the request's API. */
export class TokenAuthProvider implements AuthProvider {
  readonly name = 'token-auth';

  constructor(private readonly keys: TokenKeyService) {}

  authenticate(request: AuthRequest): Promise<AuthPrincipal> {
    return promiseOf(() => {
      const type = this.keys.verify(bearerToken(request), KEY_FOR_API[request.api]);
      return { subject: `${type} key`, scopes: SCOPES_OF_KEY[type] };
    });
  }
}
