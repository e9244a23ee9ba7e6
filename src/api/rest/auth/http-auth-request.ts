import type { IncomingMessage } from 'node:http';
import type { AuthRequest, GuardedApi } from '../../../sdk/auth/auth.js';

/** The parts of an HTTP request an auth provider sees. */
export type HttpAuthSource = Pick<IncomingMessage, 'method' | 'url' | 'headers' | 'rawHeaders'>;

/**
 * The values of header `name` (lower case) when the request repeats it, joined with `, `, or undefined
 * when it came once or not at all. Node keeps only the first `Authorization` (and a few other headers)
 * of a request that repeats it; a guard reading that one would accept a request whose other header a
 * proxy in front may have read instead.
 */
function repeatedHeader(rawHeaders: readonly string[], name: string): string | undefined {
  let first = -1;
  let values: string[] | undefined;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i] ?? '';
    if (raw.length !== name.length || raw.toLowerCase() !== name) continue;
    if (first === -1) first = i;
    else (values ??= [rawHeaders[first + 1] ?? '']).push(rawHeaders[i + 1] ?? '');
  }
  return values?.join(', ');
}

/**
 * What an auth provider sees of an HTTP request: method, path without the query, headers. A repeated
 * header reads as its values joined with `, ` (as HTTP combines repeated fields), whatever Node kept
 * of it, so `Bearer` parsing refuses two `Authorization` headers instead of picking one.
 */
export function httpAuthRequest(api: GuardedApi, request: HttpAuthSource): AuthRequest {
  const path = (request.url ?? '').split('?', 1)[0] ?? '';
  return {
    api,
    transport: 'http',
    method: request.method ?? '',
    path,
    header(name) {
      const lower = name.toLowerCase();
      const value = request.headers[lower];
      if (value === undefined) return undefined;
      return repeatedHeader(request.rawHeaders, lower) ?? (Array.isArray(value) ? value[0] : value);
    },
  };
}
