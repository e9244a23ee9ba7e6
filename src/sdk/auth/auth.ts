/** The APIs a guard can protect. gRPC services belong to the API of their port. */
export type GuardedApi = 'inference' | 'management' | 'metrics';

/** The scopes a credential can carry: one per guarded API, and `api` for key administration. */
export type AuthScope = 'inference' | 'management' | 'metrics' | 'api';

/** What a guard sees of a request, the same for HTTP and gRPC. */
export interface AuthRequest {
  readonly api: GuardedApi;
  readonly transport: 'http' | 'grpc';
  /** HTTP method, or `POST` for gRPC. */
  readonly method: string;
  /** URL path without the query, or the gRPC method path (`/inference.GRPCInferenceService/ModelInfer`). */
  readonly path: string;
  /**
   * A header (HTTP) or metadata entry (gRPC) by lower-case name. A repeated HTTP header reads as its
   * values joined with `, `, so one `Authorization: Bearer` header is told apart from several; so does a
   * repeated gRPC metadata entry.
   */
  header(name: string): string | undefined;
}

/** Who made an accepted request. */
export interface AuthPrincipal {
  /** A name for logs and traces (the key's scope, the JWT subject). */
  readonly subject: string;
  readonly scopes: readonly AuthScope[];
}

/**
 * A guard in front of an API. It resolves with the principal when the request may go on, and throws a
 * `SluiceError` otherwise: `SLUICE_AUTH_MISSING_CREDENTIALS`, `SLUICE_AUTH_INVALID_CREDENTIALS` or
 * `SLUICE_AUTH_EXPIRED_CREDENTIALS` (401 / UNAUTHENTICATED), `SLUICE_AUTH_FORBIDDEN` (403 /
 * PERMISSION_DENIED). Nothing behind the guard runs for a refused request.
 */
export interface AuthProvider {
  /** The name the config's `auth` section refers to (`token-auth`). */
  readonly name: string;
  /**
   * Called once at start-up, before any request, when the configuration puts this provider in front of an
   * API. Set-up that costs or needs settings (writing a key file, reading keys) belongs here, so a
   * provider that is loaded but unused does nothing. Throwing refuses the start, and so does not finishing
   * within `pluginLoadTimeoutMs` (`SLUICE_PLUGIN_LOAD_FAILED` naming the provider).
   */
  start?(): Promise<void>;
  /**
   * Called once every port of the server listens, before the start completes, on each provider whose
   * `start` was called. Effects other processes see, and that a start which fails to listen must not leave
   * behind (writing the key file clients read), belong here: a start that fails never calls it. Requests may
   * already arrive while it runs. Throwing refuses the start (the ports close again), and so does not
   * finishing within `pluginLoadTimeoutMs` (`SLUICE_PLUGIN_FAILED` naming the provider).
   */
  serving?(): Promise<void>;
  authenticate(request: AuthRequest): Promise<AuthPrincipal>;
}
