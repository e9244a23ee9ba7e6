import type { FastifyRequest } from 'fastify';
import { SluiceError } from '../../../sdk/errors/index.js';
import { narrowedToKServeV1 } from './kserve-v1-path.js';

/** The methods a port's routes can take, in the order an `Allow` header lists them. */
const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Whether the router's match takes the path: Nest answers a route parameter that matched an empty
 * segment (`/v2/models/`, `/v2/models//ready`) as not found, although the router matches it.
 */
function takesPath(found: { readonly params?: Readonly<Record<string, string | undefined>> } | null): boolean {
  if (found === null) return false;
  return Object.entries(found.params ?? {}).every(([name, value]) => name === '*' || value !== '');
}

/**
 * The methods that some route of `request`'s port takes for `request`'s path: for a request no route
 * took, the methods it could have used; empty when no route matches the path at all (an unknown route,
 * not a wrong method).
 */
export function methodsForPath(request: FastifyRequest): string[] {
  const path = request.url.split('?')[0] ?? '';
  // Typed as always found, but null when no route matches.
  const routed = METHODS.filter((method) => takesPath(request.server.findRoute({ method, url: path }) as Parameters<typeof takesPath>[0]));
  return narrowedToKServeV1(path, routed);
}

/**
 * `SLUICE_METHOD_NOT_ALLOWED` (405) for `route` (`GET /v1/models/m:predict`), naming the methods its path
 * takes in the message and in the `Allow` header; `hint` is added to the message.
 */
export function methodNotAllowed(route: string, allowed: readonly string[], hint = ''): SluiceError {
  return new SluiceError('SLUICE_METHOD_NOT_ALLOWED', `${route} is not allowed: this path takes ${allowed.join(', ')}${hint}`, { allow: allowed.join(', ') });
}
