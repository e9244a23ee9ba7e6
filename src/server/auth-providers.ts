import { SluiceError } from '../common/errors/index.js';
import type { AuthConfig } from '../config/index.js';
import type { AuthProvider, GuardedApi } from '../plugins/sdk/auth.js';

const GUARDED_APIS: readonly GuardedApi[] = ['inference', 'management', 'metrics'];

/** The provider guarding each API; an API that is missing is open. */
export type ApiGuards = Readonly<Partial<Record<GuardedApi, AuthProvider>>>;

/**
 * Picks the provider the `auth` section names for each API from `providers` (the auth plugins' and the
 * embedder's), and starts each chosen one once: a provider nobody chose is never started, so an auth
 * plugin that is loaded but unused writes no key file and needs no config. A name no provider has is
 * `SLUICE_CONFIG_INVALID` listing the known ones.
 */
export async function resolveApiGuards(auth: AuthConfig, providers: readonly AuthProvider[]): Promise<ApiGuards> {
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
  for (const provider of new Set(Object.values(guards))) await provider.start?.();
  return guards;
}

/**
 * Tells each provider of `guards` (those {@link resolveApiGuards} started) that every port listens, once
 * each, in turn; the first that throws refuses the start.
 */
export async function notifyProvidersServing(guards: ApiGuards): Promise<void> {
  for (const provider of new Set(Object.values(guards))) await provider.serving?.();
}
