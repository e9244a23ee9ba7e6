import { SluiceError } from '../../sdk/errors/index.js';
import type { Logger } from '../../sdk/logging/logger.js';
import type { AuthProvider } from '../../sdk/auth/auth.js';
import type { Endpoint } from '../../sdk/endpoint/endpoint.js';
import type { Envelope } from '../../sdk/envelope/envelope.js';
import type { Executor } from '../../sdk/executor/executor.js';
import type { Handler } from '../../sdk/handler/handler.js';
import type { HookListener, HookName } from '../../sdk/hooks/hooks.js';
import type { NodeHandler } from '../../sdk/node-handler/node-handler.js';
import type { ExtensionPoint, NestDynamicModule, PluginContext } from '../../sdk/plugin/plugin.js';
import { HookBus } from '../registry/hook-bus.js';
import { checkCallback, checkNestModule, extensionName } from './extension-shape.js';
import type { PluginManifest } from './plugin-manifest.js';

/** What one plugin registered during its `register` call, by extension point. */
export interface PluginRegistrations {
  readonly handlers: Handler[];
  readonly nodeHandlers: NodeHandler[];
  readonly executors: Executor[];
  readonly envelopes: Envelope[];
  readonly auth: AuthProvider[];
  readonly endpoints: Endpoint[];
  readonly nestModules: { api: 'inference' | 'management'; module: NestDynamicModule }[];
  readonly hooks: { name: HookName; listener: HookListener<HookName> }[];
  readonly shutdown: (() => void | Promise<void>)[];
}

/** What {@link createPluginContext} needs besides the manifest. */
export interface PluginContextOptions {
  readonly manifest: PluginManifest;
  readonly config: Readonly<Record<string, unknown>>;
  readonly folder: string;
  readonly configDirectory: string;
  readonly sluiceVersion: string;
  readonly logger: Logger;
}

/**
 * The context one plugin's `register` receives, and the registrations it collects. Each registration
 * must be declared in the manifest's `provides`; {@link checkDeclaredRegistrations} checks the converse
 * once `register` has returned. After `close()` the context refuses further registrations, so a plugin
 * cannot add extensions once the server has started.
 */
export function createPluginContext(options: PluginContextOptions): { context: PluginContext; registrations: PluginRegistrations; close(): void } {
  const { manifest } = options;
  const registrations: PluginRegistrations = { handlers: [], nodeHandlers: [], executors: [], envelopes: [], auth: [], endpoints: [], nestModules: [], hooks: [], shutdown: [] };
  let open = true;
  const stillOpen = (what: string): void => {
    if (!open) throw new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${manifest.name}: registered ${what} after start-up; register everything inside register()`, { plugin: manifest.name });
  };
  const declared = (point: ExtensionPoint, name: string): void => {
    stillOpen(`${point} \`${name}\``);
    if (!manifest.provides.some((p) => p.point === point && p.name === name)) {
      throw new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${manifest.name}: registers ${point} \`${name}\`, which its manifest does not declare; add {point: ${point}, name: ${name}} to \`provides\``, {
        plugin: manifest.name,
        field: 'provides',
      });
    }
  };
  // Each extension once: a second one of the same name would later read as a clash with another plugin.
  const collect = <T extends { readonly name: string }>(point: Exclude<ExtensionPoint, 'hook'>, list: T[], item: T): void => {
    const name = extensionName(manifest.name, point, item);
    declared(point, name);
    if (list.some((earlier) => earlier.name === name)) {
      throw new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${manifest.name}: registers ${point} \`${name}\` twice; register each extension once`, { plugin: manifest.name, field: 'provides' });
    }
    list.push(item);
  };
  const context: PluginContext = {
    name: manifest.name,
    version: manifest.version,
    sluiceVersion: options.sluiceVersion,
    config: options.config,
    directory: options.folder,
    configDirectory: options.configDirectory,
    logger: options.logger,
    handler: (handler) => {
      collect('handler', registrations.handlers, handler);
    },
    nodeHandler: (handler) => {
      collect('node-handler', registrations.nodeHandlers, handler);
    },
    envelope: (envelope) => {
      collect('envelope', registrations.envelopes, envelope);
    },
    executor: (executor) => {
      collect('executor', registrations.executors, executor);
    },
    auth: (provider) => {
      collect('auth', registrations.auth, provider);
    },
    endpoint: (endpoint) => {
      collect('endpoint', registrations.endpoints, endpoint);
    },
    nestModule: (api, module) => {
      checkNestModule(manifest.name, api, module);
      declared('endpoint', module.module.name);
      registrations.nestModules.push({ api, module });
    },
    hook: (name, listener) => {
      if (!HookBus.isHookName(name)) {
        throw new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${manifest.name}: there is no hook \`${String(name)}\`; hooks: onModelLoad, onModelUnload, preInfer, postInfer, onWorkflowNodeEnd`, {
          plugin: manifest.name,
        });
      }
      declared('hook', name);
      checkCallback(manifest.name, `a \`${name}\` listener`, listener);
      registrations.hooks.push({ name, listener: listener as HookListener<HookName> });
    },
    onShutdown: (close) => {
      stillOpen('a shutdown callback');
      checkCallback(manifest.name, 'a shutdown callback', close);
      registrations.shutdown.push(close);
    },
  };
  return { context, registrations, close: () => (open = false) };
}

function registeredNames(r: PluginRegistrations): Map<ExtensionPoint, Set<string>> {
  const names = new Map<ExtensionPoint, Set<string>>();
  const add = (point: ExtensionPoint, name: string): void => void names.set(point, (names.get(point) ?? new Set()).add(name));
  const lists: [ExtensionPoint, readonly { readonly name: string }[]][] = [
    ['handler', r.handlers],
    ['node-handler', r.nodeHandlers],
    ['executor', r.executors],
    ['envelope', r.envelopes],
    ['auth', r.auth],
    ['endpoint', r.endpoints],
    ['endpoint', r.nestModules.map((m) => m.module.module)],
    ['hook', r.hooks],
  ];
  for (const [point, list] of lists) for (const item of list) add(point, item.name);
  return names;
}

/** Throws `SLUICE_PLUGIN_LOAD_FAILED` when the plugin left out something its manifest's `provides` declares. */
export function checkDeclaredRegistrations(manifest: PluginManifest, registrations: PluginRegistrations): void {
  const names = registeredNames(registrations);
  const missing = manifest.provides.filter((p) => !names.get(p.point)?.has(p.name));
  if (missing.length > 0) {
    const list = missing.map((p) => `${p.point} \`${p.name}\``).join(', ');
    throw new SluiceError('SLUICE_PLUGIN_LOAD_FAILED', `plugin ${manifest.name}: its manifest declares ${list} in \`provides\` but register() did not register it; register it or remove the entry`, {
      plugin: manifest.name,
      field: 'provides',
    });
  }
}
