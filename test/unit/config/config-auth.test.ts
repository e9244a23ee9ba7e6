import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../../src/config/index.js';
import { notifyProvidersServing, resolveApiGuards } from '../../../src/server/auth-providers.js';
import type { AuthProvider } from '../../../src/sdk/auth/auth.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** A start() limit no test reaches unless it means to. */
const START_LIMIT_MS = 10_000;

const provider = (name: string): AuthProvider => ({ name, authenticate: () => Promise.resolve({ subject: name, scopes: [] }) });

describe('the auth section', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('guards the management API with token-auth by default, and nothing else', () => {
    expect(loadConfig({ cwd: dir, env: {} }).auth).toEqual({ inference: 'none', management: 'token-auth', metrics: 'none' });
  });

  it('is set per API from SLUICE_AUTH_* variables', () => {
    expect(loadConfig({ cwd: dir, env: { SLUICE_AUTH_MANAGEMENT: 'none', SLUICE_AUTH_INFERENCE: 'jwt-auth' } }).auth).toEqual({
      inference: 'jwt-auth',
      management: 'none',
      metrics: 'none',
    });
  });

  it('refuses a provider name that is not a plugin name, naming the key', () => {
    expect(() => loadConfig({ cwd: dir, env: { SLUICE_AUTH_METRICS: 'Token Auth' } })).toThrow(/SLUICE_AUTH_METRICS: `auth\.metrics`/);
  });

  it('picks the named provider for each API and leaves `none` APIs open', async () => {
    const jwt = provider('jwt-auth');
    const guards = await resolveApiGuards({ inference: 'jwt-auth', management: 'jwt-auth', metrics: 'none' }, [jwt, provider('other')], START_LIMIT_MS);
    expect(guards).toEqual({ inference: jwt, management: jwt });
  });

  it('refuses to start when an API names a provider nobody registered', async () => {
    await expect(resolveApiGuards({ inference: 'none', management: 'ldap-auth', metrics: 'none' }, [], START_LIMIT_MS)).rejects.toMatchObject({
      code: 'SLUICE_CONFIG_INVALID',
      message: expect.stringContaining('`auth.management` names "ldap-auth"') as unknown,
    });
  });

  it('starts each chosen provider once, however many APIs it guards, and never an unused one', async () => {
    const started: string[] = [];
    const startable = (name: string): AuthProvider => ({ ...provider(name), start: () => Promise.resolve(void started.push(name)) });
    const token = startable('token-auth');
    const guards = await resolveApiGuards({ inference: 'token-auth', management: 'token-auth', metrics: 'none' }, [token, startable('jwt-auth')], START_LIMIT_MS);
    expect(guards.management).toBe(guards.inference);
    expect(started).toEqual(['token-auth']);
  });

  it('refuses to start, naming the provider, when a chosen provider\'s start() has not finished within the limit', async () => {
    const stuck: AuthProvider = { ...provider('stuck'), start: () => new Promise(() => undefined) };
    await expect(resolveApiGuards({ inference: 'none', management: 'stuck', metrics: 'none' }, [stuck], 50)).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'auth provider `stuck`: start() did not finish within 0.05 s; make it finish (start long work in the background instead of awaiting it), or raise `pluginLoadTimeoutMs`',
    });
  });

  it('waits for a start() that finishes within the limit', async () => {
    const slow: AuthProvider = { ...provider('slow'), start: () => new Promise((resolve) => setTimeout(resolve, 20)) };
    expect(await resolveApiGuards({ inference: 'slow', management: 'none', metrics: 'none' }, [slow], 1000)).toEqual({ inference: slow });
  });

  it('refuses the start, naming the provider, when a chosen provider\'s serving() has not finished within the limit', async () => {
    const stuck: AuthProvider = { ...provider('stuck'), serving: () => new Promise(() => undefined) };
    await expect(notifyProvidersServing({ management: stuck }, 50)).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_FAILED',
      message:
        'auth provider `stuck`: serving() did not finish within 0.05 s of the ports opening, so the start is refused; make it finish (start long work in the background instead of awaiting it), or raise `pluginLoadTimeoutMs`',
      details: { provider: 'stuck', limitMs: 50 },
    });
  });

  it('calls serving() once per provider, however many APIs it guards, and waits for one that finishes within the limit', async () => {
    let calls = 0;
    const slow: AuthProvider = {
      ...provider('slow'),
      serving: () =>
        new Promise((resolve) => {
          setTimeout(() => {
            calls += 1;
            resolve();
          }, 20);
        }),
    };
    await notifyProvidersServing({ inference: slow, management: slow }, 1000);
    expect(calls).toBe(1);
  });
});
