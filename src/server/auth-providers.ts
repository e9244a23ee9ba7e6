import { SluiceError } from '../common/errors/index.js';
import type { Logger } from '../common/logger.js';
import type { AuthConfig } from '../config/index.js';
import type { AuthProvider, GuardedApi } from '../plugins/sdk/auth.js';
import { createTokenAuth, tokenAuthOptions } from '../../plugins/token-auth/index.js';

const GUARDED_APIS: readonly GuardedApi[] = ['inference', 'management', 'metrics'];

/** The provider guarding each API; an API that is missing is open. */
export type ApiGuards = Readonly<Partial<Record<GuardedApi, AuthProvider>>>;

/**
 * Picks the provider the `auth` section names for each API from `providers`.
 *
 * Until the plugin loader registers auth plugins from the `plugins:` list, `token-auth` is built here with
 * its default config when the section names it and `providers` has none of that name. The loader replaces
 * this: it then passes every registered provider, and this function only looks names up.
 */
export async function resolveApiGuards(auth: AuthConfig, providers: readonly AuthProvider[], configDirectory: string, logger: Logger): Promise<ApiGuards> {
  const byName = new Map(providers.map((provider) => [provider.name, provider]));
  const guards: Partial<Record<GuardedApi, AuthProvider>> = {};
  for (const api of GUARDED_APIS) {
    const name = auth[api];
    if (name === 'none') continue;
    let provider = byName.get(name);
    if (provider === undefined && name === 'token-auth') {
      provider = (await createTokenAuth(tokenAuthOptions({}, configDirectory), logger.child({ plugin: 'token-auth' }))).provider;
      byName.set(name, provider);
    }
    if (provider === undefined) {
      const known = ['none', ...byName.keys(), ...(byName.has('token-auth') ? [] : ['token-auth'])].join(', ');
      throw new SluiceError('SLUICE_CONFIG_INVALID', `\`auth.${api}\` names ${JSON.stringify(name)}, which no auth plugin provides (known: ${known})`, {
        key: `auth.${api}`,
      });
    }
    guards[api] = provider;
  }
  return guards;
}
