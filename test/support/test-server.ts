import { cp, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig, type AuthConfig, type ConfigLayer, type SluiceConfig } from '../../src/config/index.js';
import type { Logger } from '../../src/sdk/logging/logger.js';
import type { AuthProvider } from '../../src/sdk/auth/auth.js';
import type { Handler } from '../../src/sdk/handler/handler.js';
import type { ModelRuntime } from '../../src/sdk/runtime/model-runtime.js';
import type { NodeHandler } from '../../src/sdk/node-handler/node-handler.js';
import type { HandlerPoolOptions } from '../../src/serving/handler-pool/index.js';
import type { GrpcGuards } from '../../src/api/grpc/grpc-servers.js';
import { startServer, type SluiceServer } from '../../src/server/sluice-server.js';
import { createLogger, lineSink } from '../../src/telemetry/logging/pino-logger.js';
import { standardOutputLogger } from '../../src/telemetry/logging/standard-output-log.js';
import type { Telemetry } from '../../src/telemetry/tracing/telemetry.js';
import { packageRoot } from '../../src/package-files/package-root.js';
import { makeTempDir } from './temp-dir.js';

/** A real server on ephemeral loopback ports with its own model store and snapshot in a temp dir. */
export interface TestServer {
  readonly server: SluiceServer;
  readonly config: SluiceConfig;
  readonly dir: string;
  /** Base URLs of the three ports. */
  readonly inference: string;
  readonly management: string;
  readonly metrics: string;
  /** `host:port` of the gRPC inference and management ports. */
  readonly grpcInference: string;
  readonly grpcManagement: string;
  /** Stops the server and removes the temp dir. */
  close(): Promise<void>;
}

/** Options for {@link startTestServer}. */
export interface TestServerOptions {
  /** Demo models copied into the temp store (default: iris and mlp). */
  readonly demoModels?: readonly string[];
  /** Extra config on top of the test defaults. */
  readonly config?: ConfigLayer;
  /** Prepares the store before start (write extra models, archives…). */
  readonly prepare?: (storeDir: string, dir: string) => Promise<void>;
  readonly restoreSnapshot?: boolean;
  /** Reuse a directory (restart tests); a fresh temp dir otherwise. */
  readonly dir?: string;
  readonly logger?: Logger;
  /** Replaces the ONNX runtime (e.g. a {@link GatedRuntime} to hold runs). */
  readonly runtime?: ModelRuntime;
  /** Workflow node handlers beside the built-in ones. */
  readonly nodeHandlers?: readonly NodeHandler[];
  /** Handlers beside the built-in ones (e.g. the test handlers of `support/handlers/`). */
  readonly handlers?: readonly Handler[];
  /** Handler thread settings; threads running test handlers need `TYPESCRIPT_THREAD_ARGV`. */
  readonly handlerPool?: HandlerPoolOptions;
  /**
   * Which provider guards each API. Test servers are open (every API `none`) unless a test asks; APIs left
   * out stay open. `token-auth` is built with its defaults (key file in `<dir>/.sluice/`) when named and
   * not among `authProviders`.
   */
  readonly auth?: Partial<AuthConfig>;
  /** Auth providers `auth` can name (a token-auth with a test clock, a jwt-auth with a test JWKS). */
  readonly authProviders?: readonly AuthProvider[];
  /** The server's telemetry (e.g. a `SpanRecorder`'s); default: from the config, tracing off. */
  readonly telemetry?: Telemetry;
  /** Auth providers in front of the gRPC ports. */
  readonly guards?: GrpcGuards;
}

/** The log lines a test server wrote, for assertions. */
export function memoryLogger(lines: string[]): Logger {
  return createLogger(
    'debug',
    lineSink((line) => lines.push(line)),
  );
}

/** Copies demo models from the repository's model store into `store` (default: iris and mlp). */
export async function copyDemoModels(store: string, models: readonly string[] = ['iris', 'mlp']): Promise<void> {
  for (const model of models) await cp(join(packageRoot(), 'model-store', model), join(store, model), { recursive: true });
}

/** Starts a server like `sluice start --foreground` would, but on ports chosen by the OS. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const temp = options.dir === undefined ? await makeTempDir('sluice-e2e-') : undefined;
  const dir = options.dir ?? temp?.dir ?? '';
  const store = join(dir, 'model-store');
  await mkdir(store, { recursive: true });
  if (options.dir === undefined) await copyDemoModels(store, options.demoModels);
  await options.prepare?.(store, dir);
  const config = loadConfig({
    cwd: dir,
    env: {},
    overrides: {
      inference: { port: 0 },
      management: { port: 0 },
      metrics: { port: 0 },
      grpc: { inference: { host: '127.0.0.1', port: 0 }, management: { host: '127.0.0.1', port: 0 } },
      modelStore: store,
      workflowStore: join(dir, 'workflows'),
      snapshot: { enabled: true, file: join(dir, 'snapshot.json') },
      logLevel: 'silent',
      auth: { inference: 'none', management: 'none', metrics: 'none', ...options.auth },
      ...options.config,
    },
  });
  const server = await startServer({
    config,
    logger: options.logger ?? standardOutputLogger(config.logLevel, 'json'),
    restoreSnapshot: options.restoreSnapshot ?? true,
    ...(options.runtime ? { runtime: options.runtime } : {}),
    ...(options.nodeHandlers ? { nodeHandlers: options.nodeHandlers } : {}),
    ...(options.handlers ? { handlers: options.handlers } : {}),
    ...(options.handlerPool ? { handlerPool: options.handlerPool } : {}),
    ...(options.authProviders ? { authProviders: options.authProviders } : {}),
    configDirectory: dir,
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    ...(options.guards ? { guards: options.guards } : {}),
  });
  return {
    server,
    config,
    dir,
    inference: server.inference.url,
    management: server.management.url,
    metrics: server.metrics.url,
    grpcInference: server.grpc?.inference.address ?? '',
    grpcManagement: server.grpc?.management.address ?? '',
    close: async () => {
      await server.stop();
      await temp?.cleanup();
    },
  };
}

/** A JSON answer: status, headers and parsed body. */
export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** Sends a request and parses the JSON answer. */
export async function requestJson(url: string, init: RequestInit & { json?: unknown } = {}): Promise<JsonAnswer> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}
