import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, type ErrorCode } from '../../../sdk/errors/index.js';
import { httpStatusOf } from '../../errors/error-mapping.js';
import { errorStyleOf, type ErrorStyle } from '../errors/error-body.js';
import { componentHeaders, componentParameters, HEADER_NAMES } from './openapi-parameters.js';
import type { AnswerDoc, ContentDoc, QueryDoc, RouteDoc } from './route-doc.js';
import { componentSchemas } from './schemas/component-schemas.js';
import type { JsonSchema } from './schemas/json-schema.js';

/** The OpenAPI version of every description Sluice serves (docs/api.md says why 3.1). */
export const OPENAPI_VERSION = '3.1.0';

/** An OpenAPI 3.1 document. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { readonly title: string; readonly version: string; readonly description: string; readonly license: { readonly name: string; readonly identifier: string } };
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly components: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** What one port's description is built from. */
export interface PortDescription {
  readonly title: string;
  readonly description: string;
  /** Sluice's version. */
  readonly version: string;
  readonly routes: readonly RouteDoc[];
  /** The auth provider guarding the port (the configuration's `auth.<api>`), or `none` for an open port. */
  readonly provider: string;
}

const TAGS: Readonly<Record<string, string>> = {
  Description: 'The OpenAPI description of this port.',
  TorchServe: 'TorchServe-compatible inference: the model’s handler reads the body and writes the answer.',
  'KServe v1': 'KServe v1: instances in, predictions out, each instance through the model’s handler.',
  'Open Inference Protocol': 'Open Inference Protocol (KServe v2): the model’s own tensors in and out, as JSON or binary tensors.',
  Workflows: 'Workflows: graphs of models, handlers and other workflows (docs/workflows.md).',
  Models: 'TorchServe-compatible model management (docs/models.md).',
  Metrics: 'Prometheus metrics (docs/observability.md).',
  Auth: 'Keys of the token-auth provider (docs/auth.md).',
};

/** The component parameter of a path template, unless the route names another. */
const USUAL_PATH_PARAMETERS: Readonly<Record<string, string>> = { model: 'Model', version: 'Version', workflow: 'Workflow' };

/** The name of the one security scheme: `Authorization: Bearer <credential>`. */
const BEARER = 'bearer';

function componentRef(kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string): JsonSchema {
  return { $ref: `#/components/${kind}/${name}` };
}

function content(bodies: ContentDoc): Record<string, { schema: JsonSchema }> {
  return Object.fromEntries(Object.entries(bodies).map(([mediaType, schema]) => [mediaType, { schema }]));
}

function headers(names: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(
    names.map((name) => {
      const header = HEADER_NAMES[name];
      if (header === undefined) throw new Error(`no component header ${name}`);
      return [header, componentRef('headers', name)];
    }),
  );
}

function answer(doc: AnswerDoc): Record<string, unknown> {
  return { description: doc.description, content: content(doc.content), ...(doc.headers ? { headers: headers(doc.headers) } : {}) };
}

function queryParameter(query: QueryDoc): Record<string, unknown> {
  return {
    name: query.name,
    in: 'query',
    required: query.required ?? false,
    description: query.description,
    schema: query.schema,
    ...(query.explode !== undefined ? { style: 'form', explode: query.explode } : {}),
  };
}

/** The codes answered with `status`, from the catalogue and the one status mapping. */
function codesOf(status: number): string[] {
  return Object.entries(ERROR_CODES)
    .filter(([code, info]) => httpStatusOf(code as ErrorCode, info.category) === status)
    .map(([code]) => code);
}

/** The error answers of the routes, built as the routes name them. */
class ErrorAnswers {
  readonly used = new Map<string, Record<string, unknown>>();

  /** A reference to the error answer of `style` with `status` (undefined: any other error). */
  refer(style: ErrorStyle, status?: number): JsonSchema {
    const name = `${style === 'oip' ? 'Oip' : 'TorchServe'}${status === undefined ? 'OtherError' : String(status)}`;
    if (!this.used.has(name)) this.used.set(name, this.build(style, status));
    return componentRef('responses', name);
  }

  private build(style: ErrorStyle, status: number | undefined): Record<string, unknown> {
    const schema = componentRef('schemas', style === 'oip' ? 'OipError' : 'TorchServeError');
    const codes = status === undefined ? [] : codesOf(status);
    const reason = status === undefined ? 'Any other error' : (STATUS_CODES[status] ?? `Status ${status}`);
    const answerHeaders = status === 401 ? ['WwwAuthenticate'] : status === 503 ? ['RetryAfter'] : [];
    return {
      description: codes.length > 0 ? `${reason}: ${codes.join(', ')} (docs/errors.md).` : `${reason}; errorCode says which (docs/errors.md).`,
      content: { 'application/json': { schema } },
      ...(answerHeaders.length > 0 ? { headers: headers(answerHeaders) } : {}),
    };
  }
}

/** Whether `route` takes a bearer credential on a port guarded by `provider`. */
function takesBearer(route: RouteDoc, provider: string): boolean {
  const access = route.access ?? 'port';
  return access === 'own' || (access === 'port' && provider !== 'none');
}

function operation(route: RouteDoc, provider: string, errors: ErrorAnswers): Record<string, unknown> {
  const style = errorStyleOf(route.path);
  const bearer = takesBearer(route, provider);
  const pathParameters = [...route.path.matchAll(/\{([^}]+)\}/g)].map(([, name = '']) => {
    const component = route.pathParameters?.[name] ?? USUAL_PATH_PARAMETERS[name];
    if (component === undefined) throw new Error(`${route.method.toUpperCase()} ${route.path}: no component parameter for {${name}}`);
    return componentRef('parameters', component);
  });
  const responses: Record<string, unknown> = {};
  for (const [status, doc] of Object.entries(route.answers)) responses[status] = answer(doc);
  for (const status of [...new Set([...route.errors, ...(bearer ? [401, 403] : [])])].sort((a, b) => a - b)) {
    if (String(status) in responses) throw new Error(`${route.method.toUpperCase()} ${route.path}: status ${status} is both an answer and an error`);
    responses[String(status)] = errors.refer(style, status);
  }
  responses['default'] = errors.refer(style);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description !== undefined ? { description: route.description } : {}),
    tags: [route.tag],
    parameters: [...pathParameters, ...(route.parameters ?? []).map((name) => componentRef('parameters', name)), ...(route.query ?? []).map(queryParameter)],
    ...(route.body ? { requestBody: { description: route.body.description, required: route.body.required, content: content(route.body.content) } } : {}),
    responses,
    // On a guarded port the open routes say so; on an open port nothing does, but a route checking its own credential.
    ...(bearer ? { security: [{ [BEARER]: [] }] } : provider !== 'none' ? { security: [] } : {}),
  };
}

/** What the bearer credential is, for the provider guarding the port and the routes that check their own. */
function bearerScheme(provider: string, routes: readonly RouteDoc[]): Record<string, unknown> {
  const own = routes.some((route) => route.access === 'own') ? ' GET /token takes token-auth’s API key.' : '';
  const guard =
    provider === 'token-auth'
      ? 'A token-auth key (the key file, .sluice/key_file.json beside the configuration): the inference key on the inference port, the management key on the management and metrics ports.'
      : provider === 'jwt-auth'
        ? 'A JSON Web Token from the identity provider whose scope grants this API.'
        : provider === 'none'
          ? 'The port is open.'
          : `What the ${provider} auth provider takes.`;
  return { type: 'http', scheme: 'bearer', ...(provider === 'jwt-auth' ? { bearerFormat: 'JWT' } : {}), description: `${guard}${own} See docs/auth.md.` };
}

/** Every `$ref` below `node`. */
function refsBelow(node: unknown, found: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) refsBelow(item, found);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.add(value);
      else refsBelow(value, found);
    }
  }
}

/**
 * The components the paths use, directly or through other components, each kind sorted by name, so that a
 * port's description holds its own shapes only. A reference to a component that does not exist throws.
 */
function usedComponents(paths: unknown, pools: Readonly<Record<string, Readonly<Record<string, unknown>>>>): Record<string, Record<string, unknown>> {
  const used: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  const pending = new Set<string>();
  refsBelow(paths, pending);
  while (pending.size > 0) {
    const [ref = ''] = pending;
    pending.delete(ref);
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [, kind = '', name = ''] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref) ?? [];
    const component = pools[kind]?.[name];
    if (component === undefined) throw new Error(`the description refers to ${ref}, which does not exist`);
    (used[kind] ??= {})[name] = component;
    refsBelow(component, pending);
  }
  return Object.fromEntries(Object.entries(used).map(([kind, components]) => [kind, Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)))]));
}

/**
 * The OpenAPI 3.1 document of one port: every route with its parameters, request bodies, answers per
 * status (errors in the route family's body) and, on a guarded port, the bearer scheme; the component
 * schemas it uses, each shape once.
 */
export function buildOpenApiDocument(port: PortDescription): OpenApiDocument {
  const errors = new ErrorAnswers();
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const route of port.routes) {
    if (operationIds.has(route.operationId)) throw new Error(`the operationId ${route.operationId} is given twice`);
    operationIds.add(route.operationId);
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route, port.provider, errors) };
  }
  const components = usedComponents(paths, {
    schemas: componentSchemas(),
    parameters: componentParameters(),
    headers: componentHeaders(),
    responses: Object.fromEntries(errors.used),
  });
  const bearer = port.routes.some((route) => takesBearer(route, port.provider));
  const tags = [...new Set(port.routes.map((route) => route.tag))].map((name) => ({ name, description: TAGS[name] ?? name }));
  return {
    openapi: OPENAPI_VERSION,
    info: { title: port.title, version: port.version, description: port.description, license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    tags,
    paths,
    components: { ...components, ...(bearer ? { securitySchemes: { [BEARER]: bearerScheme(port.provider, port.routes) } } : {}) },
  };
}
