import type { IncomingMessage } from 'node:http';
import type { AuthRequest, GuardedApi } from '../../../plugins/sdk/auth.js';

/** What an auth provider sees of an HTTP request: method, path without the query, headers. */
export function httpAuthRequest(api: GuardedApi, request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>): AuthRequest {
  const path = (request.url ?? '').split('?', 1)[0] ?? '';
  return {
    api,
    transport: 'http',
    method: request.method ?? '',
    path,
    header(name) {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
  };
}
