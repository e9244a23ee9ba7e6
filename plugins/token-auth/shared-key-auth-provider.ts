import { bearerToken, SluiceError, type AuthPrincipal, type AuthProvider, type AuthRequest, type AuthScope, type GuardedApi } from '../../src/sdk/index.js';
import type { SharedKeyType } from './shared-keys.js';

/** The key each API takes: the metrics API takes the management key, as with generated keys. */
const KEY_FOR_API: Readonly<Record<GuardedApi, SharedKeyType>> = { inference: 'inference', management: 'management', metrics: 'management' };

const SCOPES_OF_KEY: Readonly<Record<SharedKeyType, readonly AuthScope[]>> = { inference: ['inference'], management: ['management', 'metrics'] };

/** Where shared keys are matched: a keys file read again when it changes, or keys read once. */
export interface SharedKeyMatcher {
  /** Which type of key `token` is, or undefined when it is none. */
  match(token: string): Promise<SharedKeyType | undefined> | SharedKeyType | undefined;
}

/**
 * The `token-auth` guard over keys every replica shares (a mounted Secret file or the environment):
 * `Authorization: Bearer <key>` with the key of the request's API. The keys do not expire; they change
 * when their source does.
 */
export class SharedKeyAuthProvider implements AuthProvider {
  readonly name = 'token-auth';

  constructor(private readonly keys: SharedKeyMatcher) {}

  async authenticate(request: AuthRequest): Promise<AuthPrincipal> {
    const accepted = KEY_FOR_API[request.api];
    const type = await this.keys.match(bearerToken(request));
    if (type === undefined) {
      throw new SluiceError('SLUICE_AUTH_INVALID_CREDENTIALS', `the token is not a current key; send the ${accepted} key the servers share (a key removed from their keys stops working at once)`);
    }
    if (type !== accepted) {
      throw new SluiceError('SLUICE_AUTH_FORBIDDEN', `the ${type} key is not accepted here; use the ${accepted} key`, { presented: type, required: accepted });
    }
    return { subject: `${type} key`, scopes: SCOPES_OF_KEY[type] };
  }
}
