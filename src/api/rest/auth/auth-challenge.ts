import type { ErrorCode } from '../../../sdk/errors/index.js';

/** The realm Sluice names in its challenges. */
const REALM = 'sluice';

const ASK_FOR_TOKEN = `Bearer realm="${REALM}"`;
const TOKEN_REFUSED = `Bearer realm="${REALM}", error="invalid_token"`;

/**
 * The `WWW-Authenticate` challenge of a 401 answer with `code` (RFC 9110 requires one on every 401):
 * the Bearer scheme that Sluice's guards read (RFC 6750), with `error="invalid_token"` when a token was
 * sent and refused, and without an error code when none was sent. The challenge names no key or token.
 */
export function authChallengeOf(code: ErrorCode): string {
  return code === 'SLUICE_AUTH_MISSING_CREDENTIALS' ? ASK_FOR_TOKEN : TOKEN_REFUSED;
}
