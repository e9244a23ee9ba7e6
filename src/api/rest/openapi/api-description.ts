import type { AuthConfig } from '../../../config/index.js';
import type { GuardedApi } from '../../../sdk/auth/auth.js';
import { INFERENCE_ROUTES } from './inference-routes.js';
import { MANAGEMENT_ROUTES } from './management-routes.js';
import { METRICS_ROUTES } from './metrics-routes.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document.js';
import type { RouteDoc } from './route-doc.js';
import { TOKEN_AUTH, TOKEN_ROUTE } from './token-auth-routes.js';

/** What a port's description says of itself, and its core routes. */
const PORTS: Readonly<Record<GuardedApi, { readonly title: string; readonly description: string; readonly routes: readonly RouteDoc[] }>> = {
  inference: { title: 'Sluice inference API', description: 'TorchServe, KServe v1 and Open Inference Protocol v2 inference, and workflow runs.', routes: INFERENCE_ROUTES },
  management: { title: 'Sluice management API', description: 'TorchServe-compatible model and workflow management.', routes: MANAGEMENT_ROUTES },
  metrics: { title: 'Sluice metrics API', description: 'Prometheus metrics.', routes: METRICS_ROUTES },
};

/** The core routes of a port, with the plugin routes its description documents beside them. */
export function documentedRoutes(api: GuardedApi, auth: AuthConfig): readonly RouteDoc[] {
  const tokenAuth = Object.values(auth).includes(TOKEN_AUTH);
  return api === 'management' && tokenAuth ? [...PORTS[api].routes, TOKEN_ROUTE] : PORTS[api].routes;
}

/**
 * The OpenAPI description one port serves: its routes, guarded as the configuration's `auth` section says,
 * and token-auth's key rotation on the management port while token-auth guards some API.
 */
export function describeApi(api: GuardedApi, serverVersion: string, auth: AuthConfig): OpenApiDocument {
  const { title, description } = PORTS[api];
  return buildOpenApiDocument({ title, description, version: serverVersion, routes: documentedRoutes(api, auth), provider: auth[api] });
}
