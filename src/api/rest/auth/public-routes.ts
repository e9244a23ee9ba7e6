import type { GuardedApi } from '../../../sdk/auth/auth.js';

/**
 * The route `config` flag that lets a route skip its API's auth guard:
 * `fastify.route({ method, url, config: { [PUBLIC_ROUTE_FLAG]: true }, handler })`. For routes that
 * authenticate on their own, like token-auth's key rotation (`Endpoint.public`).
 */
export const PUBLIC_ROUTE_FLAG = 'sluicePublic';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** See {@link PUBLIC_ROUTE_FLAG}. */
    sluicePublic?: boolean;
  }
}

/** A route as Fastify knows it: the method and the route's URL pattern (`/models/:name`), not the request's path. */
export interface RouteKey {
  readonly method: string;
  readonly url: string;
}

/**
 * Health checks stay open on a guarded API, as TorchServe keeps `/ping` open: load balancers and
 * Kubernetes probes call them without credentials, and they reveal nothing but up or down.
 */
export const OPEN_HEALTH_ROUTES: Readonly<Record<GuardedApi, readonly RouteKey[]>> = {
  inference: [
    { method: 'GET', url: '/ping' },
    { method: 'GET', url: '/v2/health/live' },
    { method: 'GET', url: '/v2/health/ready' },
  ],
  management: [],
  metrics: [],
};

/** The routes of one port that skip its auth guard, by method and route URL pattern. */
export class PublicRoutes {
  private readonly keys = new Set<string>();

  constructor(routes: Iterable<RouteKey> = []) {
    for (const route of routes) this.add(route);
  }

  /** Marks a route public; `HEAD` follows `GET`, as Fastify answers HEAD from the GET route. */
  add(route: RouteKey): void {
    this.keys.add(PublicRoutes.key(route.method, route.url));
  }

  /** Whether a request routed to `url` with `method` skips the guard. */
  has(method: string, url: string): boolean {
    return this.keys.has(PublicRoutes.key(method === 'HEAD' ? 'GET' : method, url));
  }

  private static key(method: string, url: string): string {
    return `${method.toUpperCase()} ${url}`;
  }
}
