import type { Logger } from '../../sdk/logging/logger.js';
import type { AuthProvider } from '../../sdk/auth/auth.js';
import type { Endpoint } from '../../sdk/endpoint/endpoint.js';
import type { Envelope } from '../../sdk/envelope/envelope.js';
import type { Executor } from '../../sdk/executor/executor.js';
import type { Handler } from '../../sdk/handler/handler.js';
import type { NodeHandler } from '../../sdk/node-handler/node-handler.js';
import type { NestDynamicModule } from '../../sdk/plugin/plugin.js';
import type { HookBus } from './hook-bus.js';
import { type NamedRegistry } from './named-registry.js';

/** A loaded plugin as the server reports it. */
export interface LoadedPluginInfo {
  readonly name: string;
  readonly version: string;
  readonly folder: string;
  readonly builtIn: boolean;
  readonly provides: readonly { readonly point: string; readonly name: string }[];
}

/** Something a plugin registered, with the plugin it came from. */
export interface FromPlugin<T> {
  readonly value: T;
  readonly plugin: string;
  /** How registries and messages name the source: `plugin ocr@0.1.0`. */
  readonly origin: string;
}

/** A plugin endpoint with what its context needs besides the server's state. */
export interface PluginEndpoint extends FromPlugin<Endpoint> {
  readonly config: Readonly<Record<string, unknown>>;
  readonly logger: Logger;
}

/**
 * Everything the plugins registered, by extension point. Handler, node-handler and executor lists go to
 * the serving core's registries (which refuse duplicates naming both origins); envelopes and auth
 * providers are looked up by name here.
 */
export interface PluginExtensions {
  readonly plugins: readonly LoadedPluginInfo[];
  readonly handlers: readonly FromPlugin<Handler>[];
  readonly nodeHandlers: readonly FromPlugin<NodeHandler>[];
  readonly executors: readonly FromPlugin<Executor>[];
  readonly envelopes: NamedRegistry<Envelope>;
  readonly auth: NamedRegistry<AuthProvider>;
  readonly endpoints: readonly PluginEndpoint[];
  readonly nestModules: readonly (FromPlugin<NestDynamicModule> & { readonly api: 'inference' | 'management' })[];
  readonly hooks: HookBus;
  /** Runs every plugin's shutdown callbacks, last loaded first; failures are logged. Idempotent. */
  shutdown(): Promise<void>;
}
