import type { JWTPayload } from 'jose';
import { SluiceError } from '../../src/sdk/index.js';
import type { JwtAuthOptions } from './jwt-auth-options.js';

/**
 * The time checks of a verified token that `jose` leaves out: `iat` is checked there only together with
 * a maximum age, so a token issued in the future would pass, and nothing bounds how far `exp` lies ahead.
 * `nowSeconds` is the server's clock in epoch seconds; `payload` has passed `jwtVerify`, so `exp` is a
 * number and `iat`, when present, one too.
 */
export function checkTokenTimes(payload: JWTPayload, nowSeconds: number, options: Pick<JwtAuthOptions, 'clockToleranceSeconds' | 'maxTokenLifetimeSeconds'>): void {
  const { iat, exp } = payload;
  if (iat !== undefined && iat > nowSeconds + options.clockToleranceSeconds) {
    throw new SluiceError(
      'SLUICE_AUTH_INVALID_CREDENTIALS',
      `the token was refused: its "iat" (issued at) lies ${String(iat - nowSeconds)} s in the future, beyond the clock tolerance of ${String(options.clockToleranceSeconds)} s; check the clocks of the identity provider and the server`,
      { reason: 'iat-in-future' },
    );
  }
  const max = options.maxTokenLifetimeSeconds;
  if (max === undefined || exp === undefined) return;
  const lifetime = exp - (iat ?? nowSeconds);
  // Without `iat` the lifetime is measured from the server's clock, which may lag the issuer's.
  if (lifetime > max + (iat === undefined ? options.clockToleranceSeconds : 0)) {
    const from = iat === undefined ? 'now' : 'its "iat"';
    throw new SluiceError(
      'SLUICE_AUTH_INVALID_CREDENTIALS',
      `the token was refused: its "exp" lies ${String(lifetime)} s after ${from}, more than \`maxTokenLifetimeSeconds\` (${String(max)} s) allows; get a token with a shorter lifetime from your identity provider`,
      { reason: 'lifetime-too-long' },
    );
  }
}
