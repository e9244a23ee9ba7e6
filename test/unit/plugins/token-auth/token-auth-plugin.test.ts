import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import tokenAuthPlugin, { type KeyFileContent } from '../../../../plugins/token-auth/index.js';
import { authRequest, bearer } from '../../../support/auth-request.js';
import { fakePluginContext, type FakePluginContext } from '../../../support/fake-plugin-context.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { permissionsOf } from '../../../support/file-mode.js';

/** Longer than any key file write takes; a write that never settles fails its test at this limit. */
const KEY_FILE_LIMIT_MS = 5_000;

/** Registers the plugin, starts its provider and says the ports listen, as the server does when `auth` names token-auth. */
async function registerAndStart(context: FakePluginContext): Promise<FakePluginContext> {
  await tokenAuthPlugin.register(context);
  await context.providers[0]?.start?.();
  await context.providers[0]?.serving?.();
  return context;
}

describe('token-auth plugin registration', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('registers the token-auth provider and a public GET /token on the management API', async () => {
    const context = fakePluginContext('token-auth', {}, dir);
    await tokenAuthPlugin.register(context);
    expect(context.providers.map((provider) => provider.name)).toEqual(['token-auth']);
    expect(context.endpoints.map(({ name, api, method, path, public: open }) => ({ name, api, method, path, open }))).toEqual([
      { name: 'token', api: 'management', method: 'GET', path: '/token', open: true },
    ]);
  });

  it('writes no key file while no API uses it', async () => {
    await tokenAuthPlugin.register(fakePluginContext('token-auth', {}, dir));
    await expect(stat(join(dir, '.sluice', 'key_file.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes no key file at start, only once the server serves, with the keys it accepts', async () => {
    const context = fakePluginContext('token-auth', {}, dir);
    await tokenAuthPlugin.register(context);
    const [provider] = context.providers;
    await provider?.start?.();
    const keyFile = join(dir, '.sluice', 'key_file.json');
    await expect(stat(keyFile)).rejects.toMatchObject({ code: 'ENOENT' });
    await provider?.serving?.();
    const { management } = JSON.parse(await readFile(keyFile, 'utf8')) as KeyFileContent;
    await expect(provider?.authenticate(authRequest('management', bearer(management.key)))).resolves.toMatchObject({ subject: 'management key' });
  });

  it('writes the key file under the config directory by default, readable by its owner only', async () => {
    await registerAndStart(fakePluginContext('token-auth', {}, dir));
    expect(await permissionsOf(join(dir, '.sluice', 'key_file.json'))).toBe('600');
  });

  it('refuses to serve with SLUICE_PLUGIN_FAILED naming the key file when it cannot be written', async () => {
    await writeFile(join(dir, 'taken'), 'a file where the key directory should be');
    const keyFile = join(dir, 'taken', 'key_file.json');
    await expect(registerAndStart(fakePluginContext('token-auth', { keyFile }, dir))).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_FAILED',
      message: expect.stringMatching(new RegExp(`^token-auth cannot write its key file ${keyFile} \\(EEXIST: .*\\); make its directory writable`)) as unknown,
      details: { plugin: 'token-auth', file: keyFile },
    });
  });

  it('refuses to serve with SLUICE_PLUGIN_FAILED naming the key file when its directory would lie under /proc', async () => {
    const keyFile = '/proc/sluice-keys/key_file.json';
    await expect(registerAndStart(fakePluginContext('token-auth', { keyFile }, dir))).rejects.toMatchObject({
      code: 'SLUICE_PLUGIN_FAILED',
      message:
        `token-auth cannot write its key file ${keyFile} (cannot create the directory /proc/sluice-keys: the filesystem of /proc makes no new directories there); ` +
        "make its directory writable by the server, or set `keyFile` in token-auth's config to a path that is",
      details: { plugin: 'token-auth', file: keyFile },
    });
  }, KEY_FILE_LIMIT_MS);

  it('writes three different url-safe keys; inference and management expire after expirationMinutes', async () => {
    const before = Date.now();
    await registerAndStart(fakePluginContext('token-auth', { keyFile: 'keys/k.json', expirationMinutes: 5 }, dir));
    const content = JSON.parse(await readFile(join(dir, 'keys', 'k.json'), 'utf8')) as KeyFileContent;
    const keys = [content.inference.key, content.management.key, content.api.key];
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expiry = Date.parse(content.inference.expiresAt ?? '') - before;
    expect(expiry).toBeGreaterThanOrEqual(5 * 60_000);
    expect(expiry).toBeLessThan(6 * 60_000);
    expect(content.api.expiresAt).toBeNull();
  });

  it('logs where the key file is, and never a key', async () => {
    const context = await registerAndStart(fakePluginContext('token-auth', {}, dir));
    const content = await readFile(join(dir, '.sluice', 'key_file.json'), 'utf8');
    const { inference, management, api } = JSON.parse(content) as KeyFileContent;
    expect(context.logger.lines).toContainEqual(expect.objectContaining({ message: 'token-auth keys written', fields: expect.objectContaining({ keyFile: join(dir, '.sluice', 'key_file.json') }) }));
    const logged = JSON.stringify(context.logger.lines);
    for (const key of [inference.key, management.key, api.key]) expect(logged).not.toContain(key);
  });

  it('refuses an expirationMinutes that is not above 0, naming the key', () => {
    expect(() => tokenAuthPlugin.register(fakePluginContext('token-auth', { expirationMinutes: 0 }, dir))).toThrow(
      expect.objectContaining({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringContaining('config.expirationMinutes') as unknown }),
    );
  });
});
