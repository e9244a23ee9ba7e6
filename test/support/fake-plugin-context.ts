import type { AuthProvider } from '../../src/sdk/auth/auth.js';
import type { Endpoint, EndpointContext, EndpointRequest } from '../../src/sdk/endpoint/endpoint.js';
import type { PluginContext } from '../../src/sdk/plugin/plugin.js';
import { QueryReader } from '../../src/api/rest/management/query-reader.js';
import { RecordingLogger } from './recording-logger.js';

/** A {@link PluginContext} that records what a plugin registers; extension points other than auth and endpoint throw. */
export interface FakePluginContext extends PluginContext {
  readonly providers: AuthProvider[];
  readonly endpoints: Endpoint[];
  readonly logger: RecordingLogger;
  /** Runs the registered shutdown callbacks, last first. */
  shutdown(): Promise<void>;
}

/**
 * A plugin context for unit tests of auth plugins: the plugin's own `config` and the folder relative paths
 * resolve against. The real one comes from the plugin loader.
 */
export function fakePluginContext(name: string, config: Readonly<Record<string, unknown>>, configDirectory: string): FakePluginContext {
  const providers: AuthProvider[] = [];
  const endpoints: Endpoint[] = [];
  const closers: (() => void | Promise<void>)[] = [];
  const unexpected = (point: string) => (): never => {
    throw new Error(`${name} registered a ${point}, which this test does not expect`);
  };
  return {
    name,
    version: '0.1.0',
    sluiceVersion: '0.1.0',
    config,
    directory: configDirectory,
    configDirectory,
    logger: new RecordingLogger(),
    providers,
    endpoints,
    handler: unexpected('handler'),
    nodeHandler: unexpected('node handler'),
    envelope: unexpected('envelope'),
    executor: unexpected('executor'),
    nestModule: unexpected('Nest module'),
    hook: unexpected('hook'),
    auth(provider) {
      providers.push(provider);
    },
    endpoint(endpoint) {
      endpoints.push(endpoint);
    },
    onShutdown(close) {
      closers.push(close);
    },
    async shutdown() {
      for (const close of closers.reverse()) await close();
    },
  };
}

/** An endpoint request with the given query and headers (lower-case names). */
export function endpointRequest(endpoint: Endpoint, query: Readonly<Record<string, string>>, headers: Readonly<Record<string, string>> = {}): EndpointRequest {
  return {
    method: endpoint.method,
    path: endpoint.path,
    params: {},
    query,
    checkedQuery: (allowed) => {
      const reader = new QueryReader(query, allowed, endpoint.api === 'management' ? 'SLUICE_MANAGEMENT_INVALID_ARGUMENT' : 'SLUICE_REQUEST_INVALID');
      return Object.fromEntries(
        allowed.flatMap((name) => {
          const value = reader.string(name);
          return value === undefined ? [] : [[name, value]];
        }),
      );
    },
    header: (headerName) => headers[headerName.toLowerCase()],
    body: new Uint8Array(),
  };
}

/** A read-only endpoint context with no models or workflows. */
export function emptyEndpointContext(config: Readonly<Record<string, unknown>> = {}): EndpointContext {
  return { models: () => [], workflows: () => [], config, logger: new RecordingLogger() };
}
