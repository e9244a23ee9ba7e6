import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthProvider, GuardedApi } from '../../../plugins/sdk/auth.js';
import { ATTR, SPAN, withChildSpan } from '../../../telemetry/index.js';
import { requestTraceContext } from '../common/request-observer.js';
import { httpAuthRequest } from './http-auth-request.js';
import { PUBLIC_ROUTE_FLAG, type PublicRoutes } from './public-routes.js';

/** The guard of one HTTP port. */
export interface AuthGuardOptions {
  /** The API the port serves. */
  readonly api: GuardedApi;
  /** The provider the configuration's `auth` section names for that API. */
  readonly provider: AuthProvider;
  /** Routes that skip the guard beside those flagged with {@link PUBLIC_ROUTE_FLAG}. */
  readonly publicRoutes: PublicRoutes;
}

function isPublic(request: FastifyRequest, publicRoutes: PublicRoutes): boolean {
  const route = request.routeOptions;
  if (route.config[PUBLIC_ROUTE_FLAG] === true) return true;
  // An unknown route has no URL pattern: it stays guarded, so the route list is not probed without credentials.
  return route.url !== undefined && publicRoutes.has(request.method, route.url);
}

/**
 * Puts `options.provider` in front of every route of `fastify` except the public ones. It runs in
 * `onRequest`, before the body is read and before any controller, so a refused request costs no body
 * parsing and reaches nothing behind the guard. A refusal is thrown: Fastify hands it to Nest's error
 * handler and so to `ErrorResponseFilter`, which answers it in the route family's error body like any other
 * error. Register it before the routes.
 */
export function installAuthGuard(fastify: FastifyInstance, options: AuthGuardOptions): void {
  fastify.addHook('onRequest', async (request) => {
    if (isPublic(request, options.publicRoutes)) return;
    await withChildSpan(requestTraceContext(request), SPAN.auth, { [ATTR.authProvider]: options.provider.name }, () =>
      options.provider.authenticate(httpAuthRequest(options.api, request)),
    );
  });
}
