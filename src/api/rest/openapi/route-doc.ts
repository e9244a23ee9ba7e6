import type { JsonSchema } from './schemas/json-schema.js';

/** A query parameter of a documented route. */
export interface QueryDoc {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
  /** For a list: `false` takes it comma-separated in one parameter (`1,2,4`), `true` as the name repeated. */
  readonly explode?: boolean;
}

/** Bodies by media type or range (`application/json`, `application/octet-stream`, any type): each body’s schema. */
export type ContentDoc = Readonly<Record<string, JsonSchema>>;

/** The request body of a documented route. */
export interface RequestBodyDoc {
  readonly description: string;
  readonly required: boolean;
  readonly content: ContentDoc;
}

/** An answer of a documented route that is not an error (errors come from {@link RouteDoc.errors}). */
export interface AnswerDoc {
  readonly description: string;
  readonly content: ContentDoc;
  /** Component headers (`components/headers`) the answer carries. */
  readonly headers?: readonly string[];
}

/**
 * Who may call a route. `port`: whoever the port's auth provider lets through (anyone on an open port);
 * `open`: anyone, as health checks stay open on a guarded port; `own`: the route checks a bearer token
 * itself (token-auth's key rotation takes the API key), whatever guards the port.
 */
export type RouteAccess = 'port' | 'open' | 'own';

/** One documented route; `path` uses OpenAPI templates (`/predictions/{model}`). */
export interface RouteDoc {
  readonly method: 'get' | 'post' | 'put' | 'delete' | 'options';
  readonly path: string;
  /** Unique within the port: the method name a generated client gives the route. */
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  /**
   * The component parameter (`components/parameters`) of each path template, by template name, where it
   * is not the usual one (`model` → Model, `version` → Version, `workflow` → Workflow).
   */
  readonly pathParameters?: Readonly<Record<string, string>>;
  /** Component parameters the route also reads: headers (`Priority`, `TimeoutMs`), shared query parameters. */
  readonly parameters?: readonly string[];
  readonly query?: readonly QueryDoc[];
  readonly body?: RequestBodyDoc;
  /** The answers that are not errors, by status. */
  readonly answers: Readonly<Record<string, AnswerDoc>>;
  /**
   * The error statuses worth naming for this route; each gets the route family's error body (TorchServe's
   * or the OIP one) and the codes answered with it. Any other error is the `default` answer.
   */
  readonly errors: readonly number[];
  /** Default `port`. */
  readonly access?: RouteAccess;
}
