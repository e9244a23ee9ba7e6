import type { AuthRequest, GuardedApi } from '../../src/sdk/auth/auth.js';

/** An HTTP {@link AuthRequest} to `api` with the given headers (lower-case names). */
export function authRequest(api: GuardedApi, headers: Readonly<Record<string, string>> = {}, path = '/'): AuthRequest {
  return { api, transport: 'http', method: 'GET', path, header: (name) => headers[name.toLowerCase()] };
}

/** `{ authorization: 'Bearer <token>' }`. */
export function bearer(token: string): Readonly<Record<string, string>> {
  return { authorization: `Bearer ${token}` };
}
