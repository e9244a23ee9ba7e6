import type { Logger } from '../logging/logger.js';
import type { AuthProvider } from '../auth/auth.js';
import type { Endpoint } from '../endpoint/endpoint.js';
import type { Envelope } from '../envelope/envelope.js';
import type { Executor } from '../executor/executor.js';
import type { Handler } from '../handler/handler.js';
import type { HookListener, HookName } from '../hooks/hooks.js';
import type { NodeHandler } from '../node-handler/node-handler.js';

/** The extension points a manifest's `provides` entries name. */
export type ExtensionPoint = 'endpoint' | 'auth' | 'envelope' | 'handler' | 'node-handler' | 'executor' | 'hook';

/**
 * A NestJS dynamic module (`{ module, controllers, providers, … }`) mounted into an API, for plugins
 * that prefer Nest controllers to {@link Endpoint}s. Typed structurally so the SDK does not import Nest.
 */
export interface NestDynamicModule {
  readonly module: abstract new (...args: never[]) => unknown;
  readonly [key: string]: unknown;
}

/**
 * What a plugin's `register` is given: its own validated config and one method per extension point.
 * Everything registered must be declared in the manifest's `provides` (and everything declared must be
 * registered), so a manifest always tells the truth about a plugin.
 */
export interface PluginContext {
  /** The plugin's name and version from its manifest. */
  readonly name: string;
  readonly version: string;
  /** The running Sluice version. */
  readonly sluiceVersion: string;
  /** The plugin's `config` from the server configuration, validated against its manifest's schema. */
  readonly config: Readonly<Record<string, unknown>>;
  /** The plugin's folder (files it ships: labels, tokenizers, keys). */
  readonly directory: string;
  /** The folder relative paths in the server configuration are resolved against. */
  readonly configDirectory: string;
  readonly logger: Logger;
  handler(handler: Handler): void;
  nodeHandler(handler: NodeHandler): void;
  envelope(envelope: Envelope): void;
  executor(executor: Executor): void;
  auth(provider: AuthProvider): void;
  endpoint(endpoint: Endpoint): void;
  /** Mounts a Nest module into an API; declare it as `{point: endpoint, name: <module class name>}`. */
  nestModule(api: 'inference' | 'management', module: NestDynamicModule): void;
  hook<Name extends HookName>(name: Name, listener: HookListener<Name>): void;
  /** Runs at shutdown, plugins in reverse load order. */
  onShutdown(close: () => void | Promise<void>): void;
}

/**
 * A plugin module's default export. `register` runs once at start-up, before any request is served; if it
 * throws, the server refuses to start (or skips the plugin when the configuration marks it `optional`).
 */
export interface SluicePlugin {
  register(context: PluginContext): void | Promise<void>;
}

/** Types a plugin object: `export default definePlugin({ register(context) { … } })`. */
export function definePlugin(plugin: SluicePlugin): SluicePlugin {
  return plugin;
}
