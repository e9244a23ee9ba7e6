import { SluiceError } from '../sdk/errors/index.js';
import type { AuthConfig } from '../config/index.js';
import { withinTimeLimit } from '../plugins/loader/time-limit.js';
import type { AuthProvider, GuardedApi } from '../sdk/auth/auth.js';

const GUARDED_APIS: readonly GuardedApi[] = ['inference', 'management', 'metrics'];

/** The provider guarding each API; an API that is missing is open. */
export type ApiGuards = Readonly<Partial<Record<GuardedApi, AuthProvider>>>;

/** The refusal of a start whose provider's `start()` outlived `limitMs`. */
function startTooSlow(provider: AuthProvider, limitMs: number): SluiceError {
  return new SluiceError(
    'SLUICE_PLUGIN_LOAD_FAILED',
    `auth provider \`${provider.name}\`: start() did not finish within ${limitMs / 1000} s; make it finish (start long work in the background instead of awaiting it), or raise \`pluginLoadTimeoutMs\``,
    { provider: provider.name, limitMs },
  );
}

/**
 * Picks the provider the `auth` section names for each API from `providers` (the auth plugins' and the
 * embedder's), and starts each chosen one once: a provider nobody chose is never started, so an auth
 * plugin that is loaded but unused writes no key file and needs no config. A name no provider has is
 * `SLUICE_CONFIG_INVALID` listing the known ones; a `start()` that has not finished after
 * `startTimeoutMs` (the config's `pluginLoadTimeoutMs`) is `SLUICE_PLUGIN_LOAD_FAILED` naming the provider.
 */
export async function resolveApiGuards(auth: AuthConfig, providers: readonly AuthProvider[], startTimeoutMs: number): Promise<ApiGuards> {
  const byName = new Map(providers.map((provider) => [provider.name, provider]));
  const guards: Partial<Record<GuardedApi, AuthProvider>> = {};
  for (const api of GUARDED_APIS) {
    const name = auth[api];
    if (name === 'none') continue;
    const provider = byName.get(name);
    if (provider === undefined) {
      const known = ['none', ...byName.keys()].join(', ');
      throw new SluiceError('SLUICE_CONFIG_INVALID', `\`auth.${api}\` names ${JSON.stringify(name)}, which no auth plugin provides (known: ${known}); name one of those, or load the plugin that provides it`, {
        key: `auth.${api}`,
      });
    }
    guards[api] = provider;
  }
  for (const provider of new Set(Object.values(guards))) {
    if (provider.start !== undefined) await withinTimeLimit(provider.start(), startTimeoutMs, () => startTooSlow(provider, startTimeoutMs));
  }
  return guards;
}

/** The refusal of a start whose provider's `serving()` outlived `limitMs`, the ports already listening. */
function servingTooSlow(provider: AuthProvider, limitMs: number): SluiceError {
  return new SluiceError(
    'SLUICE_PLUGIN_FAILED',
    `auth provider \`${provider.name}\`: serving() did not finish within ${limitMs / 1000} s of the ports opening, so the start is refused; make it finish (start long work in the background instead of awaiting it), or raise \`pluginLoadTimeoutMs\``,
    { provider: provider.name, limitMs },
  );
}

/**
 * Tells each provider of `guards` (those {@link resolveApiGuards} started) that every port listens, once
 * each, in turn; the first that throws refuses the start, and so does a `serving()` that has not finished
 * after `timeoutMs` (the config's `pluginLoadTimeoutMs`): `SLUICE_PLUGIN_FAILED` naming the provider. A
 * provider's `serving()` publishes what clients need (token-auth's key file), so a server whose provider
 * never finished it would listen while nobody could get in.
 */
export async function notifyProvidersServing(guards: ApiGuards, timeoutMs: number): Promise<void> {
  for (const provider of new Set(Object.values(guards))) {
    if (provider.serving !== undefined) await withinTimeLimit(provider.serving(), timeoutMs, () => servingTooSlow(provider, timeoutMs));
  }
}
