import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { bearerToken, SluiceError, type AuthPrincipal, type AuthProvider, type AuthRequest, type AuthScope } from '../../src/sdk/index.js';
import type { JwtAuthOptions } from './jwt-auth-options.js';
import { scopesInClaim } from './jwt-scopes.js';
import { checkTokenTimes } from './jwt-token-times.js';

const GRANTABLE: readonly Exclude<AuthScope, 'api'>[] = ['inference', 'management', 'metrics'];

/** A verification failure as a Sluice error: an expired token is told apart, the rest is invalid. */
function refusal(error: unknown): SluiceError {
  if (error instanceof errors.JWTExpired) {
    return new SluiceError('SLUICE_AUTH_EXPIRED_CREDENTIALS', 'the token has expired; get a new one from your identity provider');
  }
  if (error instanceof errors.JOSEError) {
    return new SluiceError('SLUICE_AUTH_INVALID_CREDENTIALS', `the token was refused (${error.message}); send a token signed by a key of the server's JWKS, with its issuer and audience`, {
      reason: error.code,
    });
  }
  throw error;
}

/**
 * The `jwt-auth` guard: `Authorization: Bearer <JWT>`, verified with `jose` against a local JWKS: the
 * signature with one of the allowed algorithms (an unsigned token never passes), `iss`, `aud`, `exp`
 * (required), `nbf` and `iat` (not in the future) with the configured clock tolerance, the lifetime when
 * `maxTokenLifetimeSeconds` is set, then the scope of the request's API.
 */
export class JwtAuthProvider implements AuthProvider {
  readonly name = 'jwt-auth';

  constructor(
    private readonly options: JwtAuthOptions,
    private readonly keys: JWTVerifyGetKey,
    /** The clock tokens are checked against, in epoch milliseconds (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(request: AuthRequest): Promise<AuthPrincipal> {
    const payload = await this.verify(bearerToken(request));
    const carried = scopesInClaim(payload, this.options.scopeClaim);
    const scopes = GRANTABLE.filter((scope) => {
      const value = this.options.scopes[scope];
      return value !== undefined && carried.has(value);
    });
    if (request.api === 'metrics' ? !scopes.includes('metrics') && !scopes.includes('management') : !scopes.includes(request.api)) {
      const needed = this.options.scopes[request.api] ?? `(no claim value is mapped to ${request.api})`;
      throw new SluiceError('SLUICE_AUTH_FORBIDDEN', `the token lacks the scope of the ${request.api} API: its \`${this.options.scopeClaim}\` claim must hold ${needed}`, {
        required: request.api,
      });
    }
    return { subject: typeof payload.sub === 'string' ? payload.sub : 'jwt', scopes };
  }

  private async verify(token: string): Promise<JWTPayload> {
    const now = this.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: [...this.options.issuer],
        audience: [...this.options.audience],
        algorithms: [...this.options.algorithms],
        clockTolerance: this.options.clockToleranceSeconds,
        requiredClaims: ['exp'],
        currentDate: new Date(now),
      }));
    } catch (error) {
      throw refusal(error);
    }
    // Whole seconds, as jose counts them.
    checkTokenTimes(payload, Math.floor(now / 1000), this.options);
    return payload;
  }
}
