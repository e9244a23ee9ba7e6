export { installAuthGuard, type AuthGuardOptions } from './auth-guard.hook.js';
export { authChallengeOf } from './auth-challenge.js';
export { httpAuthRequest, type HttpAuthSource } from './http-auth-request.js';
export { OPEN_HEALTH_ROUTES, PUBLIC_ROUTE_FLAG, PublicRoutes, type RouteKey } from './public-routes.js';
