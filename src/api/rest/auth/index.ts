export { installAuthGuard, type AuthGuardOptions } from './auth-guard.hook.js';
export { httpAuthRequest } from './http-auth-request.js';
export { OPEN_HEALTH_ROUTES, PUBLIC_ROUTE_FLAG, PublicRoutes, type RouteKey } from './public-routes.js';
