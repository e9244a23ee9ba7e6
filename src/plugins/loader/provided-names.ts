import { SluiceError } from '../../sdk/errors/index.js';
import type { PluginRegistrations } from './plugin-registration.js';

/** How messages name each extension point, as the registries that hold them do. */
const KINDS = [
  ['handler', (r: PluginRegistrations) => r.handlers],
  ['workflow handler', (r: PluginRegistrations) => r.nodeHandlers],
  ['executor', (r: PluginRegistrations) => r.executors],
  ['envelope', (r: PluginRegistrations) => r.envelopes],
  ['auth provider', (r: PluginRegistrations) => r.auth],
] as const;

/**
 * The named extensions of the plugins loaded so far. A plugin providing a name another plugin already
 * provides is refused as it loads (`SLUICE_PLUGIN_INVALID` naming both), so an `optional` one is skipped
 * like any other plugin that cannot be loaded, rather than failing the start once every plugin is in.
 */
export class ProvidedNames {
  private readonly owners = new Map<string, string>();

  /** Records what `plugin` (named `origin` in messages) registered, or throws if another plugin has one of its names. */
  claim(plugin: string, origin: string, registrations: PluginRegistrations): void {
    const claimed = KINDS.flatMap(([kind, listOf]) => listOf(registrations).map((extension) => ({ kind, name: extension.name, key: `${kind} ${extension.name}` })));
    for (const { kind, name, key } of claimed) {
      const owner = this.owners.get(key);
      if (owner !== undefined) {
        throw new SluiceError('SLUICE_PLUGIN_INVALID', `${kind} \`${name}\` is provided by both ${owner} and ${origin}; remove one of them`, { plugin, field: 'provides' });
      }
    }
    for (const { key } of claimed) this.owners.set(key, origin);
  }
}
