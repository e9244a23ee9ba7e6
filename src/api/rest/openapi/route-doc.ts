/** A query parameter of a documented route. */
export interface QueryDoc {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly description: string;
  readonly required?: boolean;
}

/** One documented route; `path` uses OpenAPI templates (`/predictions/{model}`). */
export interface RouteDoc {
  readonly method: 'get' | 'post' | 'put' | 'delete' | 'options';
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly query?: readonly QueryDoc[];
  /** Media types the body may have; no body when omitted. */
  readonly body?: readonly string[];
  /** Media type of a 200 answer (JSON when omitted). */
  readonly produces?: string;
}

/** An OpenAPI 3.0 document (only the parts Sluice fills). */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly paths: Record<string, Record<string, unknown>>;
}

const ERROR_RESPONSE = { description: 'Error: a JSON body with the message and the stable `errorCode` (see docs/errors.md)' };

/** Builds the OpenAPI document of one port from its route list. */
export function buildOpenApiDocument(title: string, version: string, description: string, routes: readonly RouteDoc[]): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const pathParams = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryParams = (route.query ?? []).map((q) => ({
      name: q.name,
      in: 'query',
      required: q.required ?? false,
      description: q.description,
      schema: { type: q.type },
    }));
    const operation: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      parameters: [...pathParams, ...queryParams],
      responses: {
        '200': { description: 'Success', content: { [route.produces ?? 'application/json']: {} } },
        default: ERROR_RESPONSE,
      },
    };
    if (route.body) operation['requestBody'] = { required: true, content: Object.fromEntries(route.body.map((type) => [type, {}])) };
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }
  return { openapi: '3.0.3', info: { title, version, description }, paths };
}
