import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import tokenAuthPlugin, { createSharedKeyAuth, readSharedKeysFile, sharedKeysFromEnvironment, tokenAuthOptions, type SharedKeyAuthProvider } from '../../../../plugins/token-auth/index.js';
import { authRequest, bearer } from '../../../support/auth-request.js';
import { fakePluginContext } from '../../../support/fake-plugin-context.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { rejection } from '../../../support/rejection.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const INFERENCE_KEY = 'i'.repeat(40);
const MANAGEMENT_KEY = 'm'.repeat(40);
const NEXT_INFERENCE_KEY = 'j'.repeat(40);

describe('shared keys from a keys file', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let file: string;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    file = join(dir, 'keys.json');
  });
  afterEach(() => cleanup());

  const write = (content: unknown): Promise<void> => writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  const refusal = async (content: unknown): Promise<{ code: string; message: string }> => {
    await write(content);
    const error = await rejection(readSharedKeysFile(file));
    return { code: error.code, message: error.message };
  };

  it('accepts each key for its own API family, and a list of keys for one family', async () => {
    await write({ inference: [INFERENCE_KEY, NEXT_INFERENCE_KEY], management: MANAGEMENT_KEY });
    const keys = await readSharedKeysFile(file);
    expect([keys.match(INFERENCE_KEY), keys.match(NEXT_INFERENCE_KEY), keys.match(MANAGEMENT_KEY), keys.match('x'.repeat(40))]).toEqual([
      'inference',
      'inference',
      'management',
      undefined,
    ]);
  });

  it.each<[string, unknown, string]>([
    ['a missing file', undefined, 'ENOENT'],
    ['text that is not JSON', '{"inference": ', 'JSON'],
    ['a list', [INFERENCE_KEY], 'it must be a JSON object with the members "inference" and "management", each a key or a list of keys'],
    ['no management key', { inference: INFERENCE_KEY }, '"management" is missing; it must hold the management key (or a list of them)'],
    ['a misspelt member', { inference: INFERENCE_KEY, managment: MANAGEMENT_KEY }, 'it has a member "managment"; only "inference" and "management" belong there'],
    ['a short key', { inference: 'short', management: MANAGEMENT_KEY }, '"inference" is 5 characters long; a shared key needs at least 32 (for example `openssl rand -base64 32`)'],
    ['a number', { inference: INFERENCE_KEY, management: 42 }, '"management" is number, not a string'],
    ['an empty list', { inference: [], management: MANAGEMENT_KEY }, '"inference" is an empty list; it must hold at least one inference key'],
    ['a bad key in a list', { inference: [INFERENCE_KEY, `${'k'.repeat(39)} `], management: MANAGEMENT_KEY }, '"inference"[1] holds a space, a comma or a character outside printable ASCII'],
    ['one key for both families', { inference: INFERENCE_KEY, management: [MANAGEMENT_KEY, INFERENCE_KEY] }, '"inference" and "management" hold the same key; give each API family its own'],
  ])('refuses %s at start-up, naming the file and the key', async (_case, content, reason) => {
    if (content === undefined) await rm(file, { force: true });
    const { code, message } = content === undefined ? await rejection(readSharedKeysFile(file)) : await refusal(content);
    expect(code).toBe('SLUICE_PLUGIN_LOAD_FAILED');
    expect(message).toContain(`token-auth: cannot use the keys file ${file}: `);
    expect(message).toContain(reason);
  });

  it('never puts a key in its messages', async () => {
    const { message } = await refusal({ inference: 'a-secret-key-too-short', management: MANAGEMENT_KEY });
    expect(message).not.toContain('a-secret-key-too-short');
  });
});

describe('shared keys from the environment', () => {
  it('reads one key or several separated by commas per variable, blanks around each ignored', () => {
    const keys = sharedKeysFromEnvironment({
      SLUICE_TOKEN_AUTH_INFERENCE_KEY: `${INFERENCE_KEY}, ${NEXT_INFERENCE_KEY}\n`,
      SLUICE_TOKEN_AUTH_MANAGEMENT_KEY: `${MANAGEMENT_KEY}\n`,
    });
    expect([keys.match(INFERENCE_KEY), keys.match(NEXT_INFERENCE_KEY), keys.match(MANAGEMENT_KEY)]).toEqual(['inference', 'inference', 'management']);
  });

  it('guards the APIs with the keys of the environment given to the plugin', async () => {
    const env = { SLUICE_TOKEN_AUTH_INFERENCE_KEY: INFERENCE_KEY, SLUICE_TOKEN_AUTH_MANAGEMENT_KEY: MANAGEMENT_KEY };
    const provider = await createSharedKeyAuth({ from: 'environment' }, new RecordingLogger(), env);
    await expect(provider.authenticate(authRequest('inference', bearer(INFERENCE_KEY)))).resolves.toMatchObject({ subject: 'inference key' });
    expect(await rejection(provider.authenticate(authRequest('inference', bearer(MANAGEMENT_KEY))))).toMatchObject({ code: 'SLUICE_AUTH_FORBIDDEN' });
  });

  it('refuses a missing variable, naming it', () => {
    expect(() => sharedKeysFromEnvironment({ SLUICE_TOKEN_AUTH_INFERENCE_KEY: INFERENCE_KEY })).toThrow(
      'token-auth: cannot use the keys in the environment: SLUICE_TOKEN_AUTH_MANAGEMENT_KEY is missing; it must hold the management key (or a list of them)',
    );
  });

  it('refuses a short key, naming its variable', () => {
    expect(() => sharedKeysFromEnvironment({ SLUICE_TOKEN_AUTH_INFERENCE_KEY: 'abc', SLUICE_TOKEN_AUTH_MANAGEMENT_KEY: MANAGEMENT_KEY })).toThrow(
      'SLUICE_TOKEN_AUTH_INFERENCE_KEY is 3 characters long',
    );
  });
});

describe('token-auth options for shared keys', () => {
  it('resolves a relative keysFile against the configuration directory, with the default reload interval', () => {
    expect(tokenAuthOptions({ keysFile: 'secrets/keys.json' }, '/etc/sluice').sharedKeys).toEqual({ from: 'file', file: '/etc/sluice/secrets/keys.json', reloadIntervalSeconds: 10 });
  });

  it('takes the environment when asked, and makes its own keys otherwise', () => {
    expect(tokenAuthOptions({ keysFromEnvironment: true }, '/').sharedKeys).toEqual({ from: 'environment' });
    expect(tokenAuthOptions({}, '/').sharedKeys).toBeUndefined();
  });

  it('refuses keysFile together with keysFromEnvironment', () => {
    expect(() => tokenAuthOptions({ keysFile: 'k.json', keysFromEnvironment: true }, '/')).toThrow(
      'token-auth: `config.keysFile` and `config.keysFromEnvironment` both say where the shared keys come from; set one of them',
    );
  });

  it('refuses a reload interval that is not a whole number of seconds', () => {
    expect(() => tokenAuthOptions({ keysFile: 'k.json', keysReloadIntervalSeconds: 1.5 }, '/')).toThrow('`config.keysReloadIntervalSeconds` must be an integer >= 0');
  });
});

describe('token-auth over shared keys', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let file: string;
  let logger: RecordingLogger;
  let clock: number;
  let provider: SharedKeyAuthProvider;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    file = join(dir, 'keys.json');
    logger = new RecordingLogger();
    clock = 0;
    await writeKeys({ inference: INFERENCE_KEY, management: MANAGEMENT_KEY });
    provider = await createSharedKeyAuth({ from: 'file', file, reloadIntervalSeconds: 10 }, logger, {}, () => clock);
  });
  afterEach(() => cleanup());

  /** Writes the keys beside the file and renames them over it, as a Secret volume swaps its files. */
  async function writeKeys(content: unknown): Promise<void> {
    const next = join(dir, 'keys.json.next');
    await writeFile(next, typeof content === 'string' ? content : JSON.stringify(content));
    await rename(next, file);
  }
  const check = (api: 'inference' | 'management' | 'metrics', token: string): Promise<unknown> => provider.authenticate(authRequest(api, bearer(token)));

  it('lets the inference key into the inference API and the management key into management and metrics', async () => {
    await expect(check('inference', INFERENCE_KEY)).resolves.toEqual({ subject: 'inference key', scopes: ['inference'] });
    await expect(check('management', MANAGEMENT_KEY)).resolves.toEqual({ subject: 'management key', scopes: ['management', 'metrics'] });
    await expect(check('metrics', MANAGEMENT_KEY)).resolves.toMatchObject({ subject: 'management key' });
  });

  it('refuses an unknown token with 401 and another family\'s key with 403', async () => {
    expect(await rejection(check('inference', 'x'.repeat(40)))).toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    expect(await rejection(check('management', INFERENCE_KEY))).toMatchObject({
      code: 'SLUICE_AUTH_FORBIDDEN',
      message: 'the inference key is not accepted here; use the management key',
    });
    expect(await rejection(provider.authenticate(authRequest('inference')))).toMatchObject({ code: 'SLUICE_AUTH_MISSING_CREDENTIALS' });
  });

  it('takes a key added to the file at once for a token it does not know, looking at the file at most once a second', async () => {
    await writeKeys({ inference: [INFERENCE_KEY, NEXT_INFERENCE_KEY], management: MANAGEMENT_KEY });
    // Read at start-up at clock 0: the unknown token has the file looked at only a second later.
    expect(await rejection(check('inference', NEXT_INFERENCE_KEY))).toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    clock = 1_000;
    await expect(check('inference', NEXT_INFERENCE_KEY)).resolves.toMatchObject({ subject: 'inference key' });
    expect(logger.lines.map((line) => line.message)).toContain('token-auth keys read again: the keys file changed');
  });

  it('stops taking a key removed from the file once the reload interval has passed', async () => {
    await writeKeys({ inference: NEXT_INFERENCE_KEY, management: MANAGEMENT_KEY });
    clock = 9_999;
    await expect(check('inference', INFERENCE_KEY)).resolves.toMatchObject({ subject: 'inference key' });
    clock = 10_000;
    expect(await rejection(check('inference', INFERENCE_KEY))).toMatchObject({ code: 'SLUICE_AUTH_INVALID_CREDENTIALS' });
    await expect(check('inference', NEXT_INFERENCE_KEY)).resolves.toMatchObject({ subject: 'inference key' });
  });

  it('keeps the keys in use when the changed file cannot be used, with a warning naming the file and the key', async () => {
    await writeKeys({ inference: 'short', management: MANAGEMENT_KEY });
    clock = 10_000;
    await expect(check('inference', INFERENCE_KEY)).resolves.toMatchObject({ subject: 'inference key' });
    const warnings = logger.lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toEqual([
      `token-auth: cannot use the keys file ${file}: "inference" is 5 characters long; a shared key needs at least 32 (for example \`openssl rand -base64 32\`); the keys read before stay in use until the file is fixed`,
    ]);
  });
});

describe('the token-auth plugin with shared keys', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir()));
  afterEach(() => cleanup());

  it('refuses to start on a keys file that is missing, naming the file', async () => {
    const context = fakePluginContext('token-auth', { keysFile: 'absent.json' }, dir);
    await tokenAuthPlugin.register(context);
    const error = await rejection(context.providers[0]?.start?.() ?? Promise.resolve());
    expect(error.code).toBe('SLUICE_PLUGIN_LOAD_FAILED');
    expect(error.message).toContain(`token-auth: cannot use the keys file ${join(dir, 'absent.json')}: ENOENT`);
  });

  it('answers GET /token with 404 saying where the keys are rotated, rotating nothing', async () => {
    await writeFile(join(dir, 'keys.json'), JSON.stringify({ inference: INFERENCE_KEY, management: MANAGEMENT_KEY }));
    const context = fakePluginContext('token-auth', { keysFile: 'keys.json' }, dir);
    await tokenAuthPlugin.register(context);
    await context.providers[0]?.start?.();
    const endpoint = context.endpoints[0];
    const error = await rejection(Promise.resolve().then(() => endpoint?.handle({ method: 'GET' } as never, {} as never)));
    expect(error).toMatchObject({ code: 'SLUICE_ROUTE_NOT_FOUND' });
    expect(error.message).toContain('update the keys file (the Secret it is mounted from)');
  });
});
