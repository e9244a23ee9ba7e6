import { SluiceError } from '../../sdk/errors/index.js';
import type { PluginEndpoint } from '../../plugins/registry/plugin-extensions.js';
import { INFERENCE_ROUTES } from './openapi/inference-routes.js';
import { MANAGEMENT_ROUTES } from './openapi/management-routes.js';
import type { RouteDoc } from './openapi/route-doc.js';

/**
 * The core routes of each HTTP port that takes plugin endpoints, as documented; the API description test
 * holds them equal to what the ports register. The metrics port takes none: it is for scrapers, and the
 * SDK's `Endpoint.api` offers only these two.
 */
const CORE_ROUTES: ReadonlyMap<string, readonly RouteDoc[]> = new Map([
  ['inference', INFERENCE_ROUTES],
  ['management', MANAGEMENT_ROUTES],
]);

/**
 * A route path with its parameter names erased, so that routes Fastify would take as one compare equal:
 * `/models/:name`, `/models/:id` and `/models/{model}` all become `/models/:`. A verb glued to a parameter
 * (`/v1/models/{model}:predict`) is one parameter segment, as Fastify routes it. A trailing slash is dropped.
 */
export function routePattern(path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return trimmed.replace(/\{[^}]+\}(:[A-Za-z]+)?/g, ':').replace(/:[^/]+/g, ':');
}

/** The start-up refusal for a plugin endpoint that takes the route of `owner` (a core route or another plugin's). */
export function shadowingEndpoint(endpoint: PluginEndpoint, owner: string): SluiceError {
  const { name, method, path, api } = endpoint.value;
  return new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${endpoint.plugin}: endpoint \`${name}\` (${method} ${path}) on the ${api} port would shadow ${owner}; choose another path`, {
    plugin: endpoint.plugin,
    field: 'provides',
    api,
    method,
    path,
  });
}

/** The methods an endpoint may have, spelled as the SDK's `Endpoint.method` spells them. */
const ENDPOINT_METHODS: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

function invalidEndpoint(endpoint: PluginEndpoint, problem: string): SluiceError {
  const { name, method, path, api } = endpoint.value;
  return new SluiceError('SLUICE_PLUGIN_INVALID', `plugin ${endpoint.plugin}: endpoint \`${name}\` (${method} ${path}) ${problem}`, { plugin: endpoint.plugin, field: 'provides', api, method, path });
}

/**
 * Checks every plugin endpoint against the core routes of its port and against the other plugins'
 * endpoints, before any port opens, so a clash refuses the start before anything listens. Throws
 * `SLUICE_PLUGIN_INVALID` naming the plugin, the endpoint's method and path, the port and what it would
 * shadow; also for an endpoint whose `api` is neither inference nor management or whose path does not
 * start with `/`.
 */
export function checkPluginEndpoints(endpoints: readonly PluginEndpoint[]): void {
  const taken = new Map<string, string>();
  for (const [api, routes] of CORE_ROUTES) {
    for (const route of routes) {
      const method = route.method.toUpperCase();
      taken.set(`${api} ${method} ${routePattern(route.path)}`, `the core route ${method} ${route.path}`);
    }
  }
  for (const endpoint of endpoints) {
    const { method, path, api } = endpoint.value;
    // Plugins written in JavaScript are not held to the SDK's types; the web framework would refuse these
    // (or, for a lower-case method, miss a clash) only once the models are loaded and ports are opening.
    if (!CORE_ROUTES.has(api)) {
      const port = (api as string) === 'metrics' ? ', whose port takes no plugin routes' : '';
      throw invalidEndpoint(endpoint, `names the API ${JSON.stringify(api)}${port}; set \`api\` to inference or management`);
    }
    if (!ENDPOINT_METHODS.includes(method)) throw invalidEndpoint(endpoint, `has the method ${JSON.stringify(method)}; use one of ${ENDPOINT_METHODS.join(', ')}`);
    if (typeof path !== 'string' || !path.startsWith('/')) throw invalidEndpoint(endpoint, 'has a path that does not start with `/`; write it from the root of the port (`/hello/:name`)');
    if (/[\s?#]/.test(path)) throw invalidEndpoint(endpoint, 'has a path with a space, `?` or `#`, which no request reaches; write the path alone (`/hello/:name`) and read the query from `request.query`');
    const key = `${api} ${method} ${routePattern(path)}`;
    const owner = taken.get(key);
    if (owner !== undefined) throw shadowingEndpoint(endpoint, owner);
    taken.set(key, `${method} ${path} of plugin ${endpoint.plugin}`);
  }
}
