import type { Logger } from '../logging/logger.js';
import type { ModelDescription } from '../model/model-description.js';

/** What an endpoint may read of the server: never change. */
export interface EndpointContext {
  /** Models and their versions as registered now. */
  models(): readonly ModelDescription[];
  /** Names of the registered workflows, sorted. */
  workflows(): readonly string[];
  /** The plugin's own validated config. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly logger: Logger;
}

/** A request to a plugin endpoint. */
export interface EndpointRequest {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  /** Route parameters (`:name` in the route's path). */
  readonly params: Readonly<Record<string, string>>;
  /** The query parameters, each with its first value; unknown ones included. */
  readonly query: Readonly<Record<string, string>>;
  /**
   * The query parameters, checked as the management API checks its own routes' query: a parameter not in
   * `allowed`, or one given more than once, is refused with 400 naming it (`SLUICE_MANAGEMENT_INVALID_ARGUMENT`
   * on the management port, `SLUICE_REQUEST_INVALID` on the inference port), so a typo or an ambiguous
   * request does not pass silently.
   */
  checkedQuery(allowed: readonly string[]): Readonly<Record<string, string>>;
  /** Headers by lower-case name. */
  header(name: string): string | undefined;
  readonly body: Uint8Array;
}

/** A plugin endpoint's answer; a thrown `SluiceError` becomes the usual error body. */
export interface EndpointResponse {
  /** Default 200. */
  readonly status?: number;
  /**
   * JSON-serialisable data, or bytes sent as they are (`application/octet-stream` unless `contentType`
   * says otherwise): a `Uint8Array` or any other typed array or `DataView` (its elements' bytes, in the
   * machine's byte order, little-endian on x64 and arm64), or an `ArrayBuffer`.
   */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A route a plugin adds to the inference or management API (behind that API's auth guard). It may not
 * take a path of a core route; the server refuses to start and names both.
 */
export interface Endpoint {
  /** A name unique within the plugin, for messages. */
  readonly name: string;
  /** The port it is served on; the metrics port takes no plugin routes. */
  readonly api: 'inference' | 'management';
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path with `:param` segments (`/hello/:name`). */
  readonly path: string;
  /**
   * Skip the API's auth guard for this route (default false): for routes that authenticate on their own,
   * like the key rotation of token-auth.
   */
  readonly public?: boolean;
  handle(request: EndpointRequest, context: EndpointContext): Promise<EndpointResponse>;
}
