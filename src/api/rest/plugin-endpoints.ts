import { validateHeaderName, validateHeaderValue } from 'node:http';
import { types } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../sdk/logging/logger.js';
import { pluginFailure } from '../../plugins/registry/plugin-failure.js';
import type { PluginEndpoint } from '../../plugins/registry/plugin-extensions.js';
import type { EndpointContext, EndpointRequest } from '../../sdk/endpoint/endpoint.js';
import { replyWithError } from './errors/error-response.filter.js';
import { QueryReader, type QueryErrorCode, type RawQuery } from './management/query-reader.js';
import { routePattern, shadowingEndpoint } from './plugin-endpoint-routes.js';

/** A route as registered: method and URL pattern. */
export interface RouteKey {
  readonly method: string;
  readonly url: string;
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : Array.isArray(v) && typeof v[0] === 'string' ? [[k, v[0]]] : [])));
}

/** The query as the management routes read it: a parameter not in `allowed`, or given twice, is refused. */
function checkedQuery(query: unknown, allowed: readonly string[], code: QueryErrorCode): Record<string, string> {
  const reader = new QueryReader(typeof query === 'object' && query !== null ? (query as RawQuery) : {}, allowed, code);
  const checked: Record<string, string> = {};
  for (const name of allowed) {
    const value = reader.string(name);
    if (value !== undefined) checked[name] = value;
  }
  return checked;
}

function endpointRequest(request: FastifyRequest, api: PluginEndpoint['value']['api']): EndpointRequest {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  return {
    method: request.method,
    path: request.url.split('?')[0] ?? request.url,
    params: stringRecord(request.params),
    query: stringRecord(request.query),
    checkedQuery: (allowed) => checkedQuery(request.query, allowed, api === 'management' ? 'SLUICE_MANAGEMENT_INVALID_ARGUMENT' : 'SLUICE_REQUEST_INVALID'),
    header: (name) => {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    },
    body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
  };
}

/** Throws, saying what to fix, unless Node can send the header `name: value`. */
function checkHeader(name: string, value: string): void {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
  } catch {
    throw new Error(`its answer has the header ${JSON.stringify(name)} with a name or value HTTP cannot carry (a name that is no token, a value with a line break or another control character); fix it or leave it out`);
  }
}

/**
 * The bytes of a binary answer body: any typed array or DataView (its own bytes, in the platform's byte
 * order) or ArrayBuffer; undefined for a body sent as JSON. Checked across realms, as plugins may build
 * their arrays in another.
 */
function bodyBytes(body: unknown): Buffer | undefined {
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (types.isAnyArrayBuffer(body)) return Buffer.from(body);
  return undefined;
}

async function answer(endpoint: PluginEndpoint, context: EndpointContext, request: FastifyRequest, reply: FastifyReply, logger: Logger): Promise<void> {
  try {
    const response = await endpoint.value.handle(endpointRequest(request, endpoint.value.api), context);
    const headers = Object.entries(response.headers ?? {});
    const body = response.body;
    const bytes = bodyBytes(body);
    const contentType = response.contentType ?? (bytes ? 'application/octet-stream' : 'application/json; charset=utf-8');
    // Checked before any is set: Node refuses a bad one only while sending, past this error answer.
    for (const [name, value] of headers) checkHeader(name, value);
    checkHeader('content-type', contentType);
    for (const [name, value] of headers) void reply.header(name, value);
    void reply.status(response.status ?? 200).type(contentType);
    await reply.send(bytes ?? (body === undefined ? '' : JSON.stringify(body)));
  } catch (error) {
    replyWithError(request, reply, pluginFailure(endpoint.plugin, `endpoint \`${endpoint.value.name}\``, error), error, logger);
  }
}

/**
 * Adds plugin endpoints for one API to its Fastify instance, after its other routes are registered.
 * `checkPluginEndpoints` has refused clashes with core routes and between endpoints before any port
 * opened; what is left to catch here is a route a plugin's Nest module registered on the same port, which
 * refuses the start naming both. Errors an endpoint throws are answered like every other error, naming
 * the plugin.
 */
export function mountPluginEndpoints(
  fastify: FastifyInstance,
  endpoints: readonly PluginEndpoint[],
  coreRoutes: readonly RouteKey[],
  contextOf: (endpoint: PluginEndpoint) => EndpointContext,
  logger: Logger,
): void {
  const taken = new Map<string, string>(coreRoutes.map((r) => [`${r.method} ${routePattern(r.url)}`, `the route ${r.method} ${r.url}`]));
  for (const endpoint of endpoints) {
    const { method, path } = endpoint.value;
    const key = `${method} ${routePattern(path)}`;
    const owner = taken.get(key);
    if (owner !== undefined) throw shadowingEndpoint(endpoint, owner);
    taken.set(key, `${method} ${path} of plugin ${endpoint.plugin}`);
    const context = contextOf(endpoint);
    fastify.route({
      method,
      url: path,
      config: { sluicePublic: endpoint.value.public === true },
      handler: (request, reply) => answer(endpoint, context, request, reply, logger),
    });
  }
}
