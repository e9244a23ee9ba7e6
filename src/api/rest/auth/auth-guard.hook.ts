import type { Context } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthProvider, GuardedApi } from '../../../sdk/auth/auth.js';
import { ATTR, SPAN, withChildSpan } from '../../../telemetry/index.js';
import { dropUnreadBody } from '../request-body/body-reader.js';
import { requestTraceContext } from '../observation/request-observer.js';
import { httpAuthRequest, type HttpAuthSource } from './http-auth-request.js';
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
 * parsing and reaches nothing behind the guard; its answer waits until the rest of its body has arrived
 * and been dropped ({@link dropUnreadBody}), so that it is the request's one answer and reaches a client
 * still sending. A refusal is thrown: Fastify hands it to Nest's error
 * handler and so to `ErrorResponseFilter`, which answers it in the route family's error body like any other
 * error. Register it before the routes.
 */
export function installAuthGuard(fastify: FastifyInstance, options: AuthGuardOptions): void {
  fastify.addHook('onRequest', async (request) => {
    if (isPublic(request, options.publicRoutes)) return;
    try {
      await authenticate(options, request.raw, requestTraceContext(request));
    } catch (refusal) {
      // Answered once the body it never reads is in, as every refusal decided on the head is.
      await dropUnreadBody(request.raw);
      throw refusal;
    }
  });
}

/**
 * The guard's check of one request, in an `auth` span under `traceContext`: resolves when the provider
 * accepts it, and rejects with the provider's refusal (a `SluiceError`) otherwise.
 */
export async function authenticate(options: AuthGuardOptions, request: HttpAuthSource, traceContext: Context | undefined): Promise<void> {
  await withChildSpan(traceContext, SPAN.auth, { [ATTR.authProvider]: options.provider.name }, () => options.provider.authenticate(httpAuthRequest(options.api, request)));
}
