import type { FastifyRequest } from 'fastify';

/** The methods a port's routes can take, in the order an `Allow` header lists them. */
const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The methods that some route of `request`'s port takes for `request`'s path: for a request no route
 * took, the methods it could have used; empty when no route matches the path at all (an unknown route,
 * not a wrong method).
 */
export function methodsForPath(request: FastifyRequest): string[] {
  const path = request.url.split('?')[0] ?? '';
  return METHODS.filter((method) => {
    // Typed as always found, but null when no route matches.
    const found: unknown = request.server.findRoute({ method, url: path });
    return found !== null;
  });
}
