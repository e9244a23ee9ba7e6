import { SluiceError } from '../errors/index.js';
import type { AuthRequest } from './auth.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * The token of the request's `Authorization: Bearer <token>` header (the `authorization` metadata entry on
 * gRPC). Throws `SLUICE_AUTH_MISSING_CREDENTIALS` when there is no such header, and
 * `SLUICE_AUTH_INVALID_CREDENTIALS` when it holds something other than one bearer token.
 */
export function bearerToken(request: Pick<AuthRequest, 'header'>): string {
  const header = request.header('authorization');
  if (header === undefined || header.trim() === '') {
    throw new SluiceError('SLUICE_AUTH_MISSING_CREDENTIALS', 'this API needs a token: send `Authorization: Bearer <token>`');
  }
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) {
    throw new SluiceError('SLUICE_AUTH_INVALID_CREDENTIALS', 'the Authorization header must be `Bearer <token>` (one token, Bearer scheme)');
  }
  return token;
}
