import type { JWTPayload } from 'jose';

/**
 * The scope values a token carries in `claim`: a space-separated string (OAuth 2.0 `scope`) or an array
 * of strings (`scp`, `roles`). Anything else carries none.
 */
export function scopesInClaim(payload: JWTPayload, claim: string): ReadonlySet<string> {
  const value = payload[claim];
  if (typeof value === 'string') return new Set(value.split(/\s+/).filter((scope) => scope !== ''));
  if (Array.isArray(value)) return new Set(value.filter((scope): scope is string => typeof scope === 'string'));
  return new Set();
}
