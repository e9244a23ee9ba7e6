import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../../src/config/index.js';
import { resolveApiGuards } from '../../../src/server/auth-providers.js';
import type { AuthProvider } from '../../../src/plugins/sdk/auth.js';
import { RecordingLogger } from '../../support/recording-logger.js';
import { makeTempDir } from '../../support/temp-dir.js';

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
    const guards = await resolveApiGuards({ inference: 'jwt-auth', management: 'jwt-auth', metrics: 'none' }, [jwt, provider('other')], dir, new RecordingLogger());
    expect(guards).toEqual({ inference: jwt, management: jwt });
  });

  it('refuses to start when an API names a provider nobody registered', async () => {
    await expect(resolveApiGuards({ inference: 'none', management: 'ldap-auth', metrics: 'none' }, [], dir, new RecordingLogger())).rejects.toMatchObject({
      code: 'SLUICE_CONFIG_INVALID',
      message: expect.stringContaining('`auth.management` names "ldap-auth"') as unknown,
    });
  });

  it('builds token-auth with its defaults when named and not given, one provider for every API naming it', async () => {
    const guards = await resolveApiGuards({ inference: 'token-auth', management: 'token-auth', metrics: 'none' }, [], dir, new RecordingLogger());
    expect(guards.inference?.name).toBe('token-auth');
    expect(guards.management).toBe(guards.inference);
  });
});
