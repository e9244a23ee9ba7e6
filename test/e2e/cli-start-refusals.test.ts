import { lookup } from 'node:dns/promises';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { packageRoot } from '../../src/package-files/package-root.js';
import { freePort, runCli } from '../support/cli-process.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { makeTempDir } from '../support/temp-dir.js';

/** Longer than any refusal takes; a start still running then is killed, and its `code` is null. */
const HANG_LIMIT_MS = 30_000;
/** Each test's limit: room for one start to be killed at {@link HANG_LIMIT_MS} and reported. */
const TEST_TIMEOUT_MS = HANG_LIMIT_MS + 10_000;

/** Runs `sluice start --foreground` in `cwd` with only `env` (and PATH) set; a hang ends with code null. */
function start(cwd: string, env: Readonly<Record<string, string>> = {}): ReturnType<typeof runCli> {
  return runCli(['start', '--foreground'], cwd, env, HANG_LIMIT_MS);
}

/** The JSON log lines of `stdout` at level error. */
function errorLines(stdout: string): unknown[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: string })
    .filter((line) => line.level === 'error');
}

/** The error lines of a start refused with `code` and `message`: the one "Sluice could not start" line. */
function startFailure(code: string, message: string): unknown[] {
  return [expect.objectContaining({ msg: 'Sluice could not start', error: { name: 'SluiceError', code, message } })];
}

describe('sluice start refuses a configuration problem found during start-up like a bad value in sluice.yaml', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-cli-'));
    await mkdir(join(dir, 'model-store'));
  });
  afterEach(async () => {
    await cleanup();
  });

  /** A config with ephemeral ports and an empty model store, plus `extra` lines. */
  async function writeConfig(...extra: string[]): Promise<void> {
    const lines = [
      'inference: { port: 0 }',
      'management: { port: 0 }',
      'metrics: { port: 0 }',
      'grpc: { inference: { port: 0 }, management: { port: 0 } }',
      'modelStore: ./model-store',
      'snapshot: { file: ./state/snapshot.json }',
      'logLevel: warn',
      ...extra,
    ];
    await writeFile(join(dir, 'sluice.yaml'), `${lines.join('\n')}\n`);
  }

  it('names the file and `auth.management` when it names a provider no plugin offers', async () => {
    await writeConfig('auth: { management: nobody }');
    expect(await start(dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'sluice: sluice.yaml: `auth.management` names "nobody", which no auth plugin provides (known: none, jwt-auth, token-auth); ' +
        'name one of those, or load the plugin that provides it [SLUICE_CONFIG_INVALID]\n',
    });
  }, TEST_TIMEOUT_MS);

  it('refuses two listeners on one port whose hosts resolve to one address, before loading anything', async () => {
    const { address } = await lookup('localhost');
    const port = await freePort();
    const listeners = [`inference: { host: '${address}', port: ${port} }`, `management: { host: localhost, port: ${port} }`, 'metrics: { port: 0 }', 'grpc: { enabled: false }'];
    await writeFile(join(dir, 'sluice.yaml'), `${[...listeners, 'modelStore: ./model-store', 'logLevel: warn'].join('\n')}\n`);
    expect(await start(dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `sluice: configuration: \`management.port\` ${port} is also \`inference.port\`, and their hosts localhost (${address}) and ${address} overlap; give each listener a port of its own (0 picks a free one) [SLUICE_CONFIG_INVALID]\n`,
    });
  }, TEST_TIMEOUT_MS);

  it('names SLUICE_AUTH_INFERENCE when the variable names a provider no plugin offers', async () => {
    await writeConfig();
    expect(await start(dir, { SLUICE_AUTH_INFERENCE: 'nobody' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'sluice: SLUICE_AUTH_INFERENCE: `auth.inference` names "nobody", which no auth plugin provides (known: none, jwt-auth, token-auth); ' +
        'name one of those, or load the plugin that provides it [SLUICE_CONFIG_INVALID]\n',
    });
  }, TEST_TIMEOUT_MS);

  it('names SLUICE_PLUGINS when an entry names no built-in plugin', async () => {
    await writeConfig();
    const finished = await start(dir, { SLUICE_PLUGINS: '[{"name": "nowhere"}]' });
    expect(finished).toMatchObject({
      code: 1,
      stderr:
        'sluice: SLUICE_PLUGINS: `plugins[0].name`: there is no built-in plugin `nowhere`; built-in plugins: builtin-handlers, cpu-executor, envelopes, ' +
        'gpu-executor, image-classifier, jwt-auth, ocr, text-classifier, token-auth. Use `path` or `package` for other plugins [SLUICE_CONFIG_INVALID]\n',
    });
    expect(errorLines(finished.stdout)).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('names SLUICE_PLUGINS when an entry names a plugin two ways', async () => {
    await writeConfig();
    const finished = await start(dir, { SLUICE_PLUGINS: '[{"name": "ocr", "path": "./ocr"}]' });
    expect(finished).toMatchObject({
      code: 1,
      stderr:
        'sluice: SLUICE_PLUGINS: `plugins[0]` sets `name` and `path`; give exactly one of `name` (a built-in plugin), `path` (a folder) ' +
        'or `package` (an npm package) [SLUICE_CONFIG_INVALID]\n',
    });
    expect(errorLines(finished.stdout)).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('names SLUICE_PLUGINS and the folder when an entry names a path that does not exist', async () => {
    await writeConfig();
    expect(await start(dir, { SLUICE_PLUGINS: '[{"path": "./nowhere"}]' })).toEqual({
      code: 1,
      stdout: '',
      stderr: `sluice: SLUICE_PLUGINS: \`plugins[0].path\`: there is no folder at ${join(dir, 'nowhere')}; fix the path, or remove the entry [SLUICE_CONFIG_INVALID]\n`,
    });
  }, TEST_TIMEOUT_MS);

  it('names SLUICE_PLUGINS and the package when an entry names a package that is not installed', async () => {
    await writeConfig();
    expect(await start(dir, { SLUICE_PLUGINS: '[{"package": "sluice-plugin-nowhere"}]' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `sluice: SLUICE_PLUGINS: \`plugins[0].package\`: package \`sluice-plugin-nowhere\` is not installed (no node_modules/sluice-plugin-nowhere in ${dir} ` +
        'or a folder above it); install it, fix the name or `from`, or remove the entry [SLUICE_CONFIG_INVALID]\n',
    });
  }, TEST_TIMEOUT_MS);

  it('names the file and the entry when a `plugins` entry of sluice.yaml names a path that does not exist', async () => {
    await writeConfig('plugins:', '  - { name: ocr }', '  - { path: ./nowhere }');
    expect(await start(dir)).toEqual({
      code: 1,
      stdout: '',
      stderr: `sluice: sluice.yaml: \`plugins[1].path\`: there is no folder at ${join(dir, 'nowhere')}; fix the path, or remove the entry [SLUICE_CONFIG_INVALID]\n`,
    });
  }, TEST_TIMEOUT_MS);

  it('names the file and the entry when a `plugins` entry of sluice.yaml names a package that is not installed', async () => {
    await writeConfig('plugins:', '  - { package: sluice-plugin-nowhere }');
    expect(await start(dir)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `sluice: sluice.yaml: \`plugins[0].package\`: package \`sluice-plugin-nowhere\` is not installed (no node_modules/sluice-plugin-nowhere in ${dir} ` +
        'or a folder above it); install it, fix the name or `from`, or remove the entry [SLUICE_CONFIG_INVALID]\n',
    });
  }, TEST_TIMEOUT_MS);
});

describe('sluice start with a plugin that never finishes', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-cli-'));
    await mkdir(join(dir, 'model-store'));
    await writeFile(
      join(dir, 'sluice.yaml'),
      ['inference: { port: 0 }', 'management: { port: 0 }', 'metrics: { port: 0 }', 'grpc: { inference: { port: 0 }, management: { port: 0 } }', 'modelStore: ./model-store', 'logLevel: warn', ''].join(
        '\n',
      ),
    );
  });
  afterEach(async () => {
    await cleanup();
  });

  it('exits 1 with the reason logged when register() never settles, even while it holds a timer', async () => {
    await writePluginFolder(join(dir, 'stuck'), { name: 'stuck' }, 'export default { register() { return new Promise(() => { setInterval(() => {}, 60_000); }); } };\n');
    const finished = await start(dir, { SLUICE_PLUGINS: '[{"path": "./stuck"}]', SLUICE_PLUGIN_LOAD_TIMEOUT_MS: '300' });
    expect(finished.code).toBe(1);
    expect(errorLines(finished.stdout)).toEqual(startFailure('SLUICE_PLUGIN_LOAD_FAILED', 'plugin stuck: register() did not finish within 0.3 s; make it finish (start long work in the background instead of awaiting it), or raise `pluginLoadTimeoutMs`'));
  }, TEST_TIMEOUT_MS);

  it('exits 1 with the reason logged when an auth provider\'s start() never settles, even while it holds a timer', async () => {
    const source =
      "export default { register(c) { c.auth({ name: 'stuck', start: () => new Promise(() => { setInterval(() => {}, 60_000); }), authenticate: async () => ({ subject: 'x', scopes: [] }) }); } };\n";
    await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'auth', name: 'stuck' }] }, source);
    const finished = await start(dir, { SLUICE_PLUGINS: '[{"path": "./stuck"}]', SLUICE_AUTH_MANAGEMENT: 'stuck', SLUICE_PLUGIN_LOAD_TIMEOUT_MS: '300' });
    expect(finished.code).toBe(1);
    expect(errorLines(finished.stdout)).toEqual(startFailure('SLUICE_PLUGIN_LOAD_FAILED', 'auth provider `stuck`: start() did not finish within 0.3 s; make it finish (start long work in the background instead of awaiting it), or raise `pluginLoadTimeoutMs`'));
  }, TEST_TIMEOUT_MS);

  it('exits 1 with the reason logged when an auth provider\'s serving() never settles, even while it holds a timer', async () => {
    const source =
      "export default { register(c) { c.auth({ name: 'stuck', serving: () => new Promise(() => { setInterval(() => {}, 60_000); }), authenticate: async () => ({ subject: 'x', scopes: [] }) }); } };\n";
    await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'auth', name: 'stuck' }] }, source);
    const finished = await start(dir, { SLUICE_PLUGINS: '[{"path": "./stuck"}]', SLUICE_AUTH_MANAGEMENT: 'stuck', SLUICE_PLUGIN_LOAD_TIMEOUT_MS: '300' });
    expect(finished.code).toBe(1);
    expect(errorLines(finished.stdout)).toEqual(startFailure('SLUICE_PLUGIN_FAILED', 'auth provider `stuck`: serving() did not finish within 0.3 s of the ports opening, so the start is refused; make it finish (start long work in the background instead of awaiting it), or raise `pluginLoadTimeoutMs`'));
  }, TEST_TIMEOUT_MS);

  it('exits 1 naming the key file when token-auth\'s key file would lie in a new directory under /proc', async () => {
    const keyFile = '/proc/sluice-keys/key_file.json';
    const finished = await start(dir, { SLUICE_PLUGINS: JSON.stringify([{ name: 'token-auth', config: { keyFile } }]) });
    expect(finished.code).toBe(1);
    expect(errorLines(finished.stdout)).toEqual(
      startFailure(
        'SLUICE_PLUGIN_FAILED',
        `token-auth cannot write its key file ${keyFile} (cannot create the directory /proc/sluice-keys: the filesystem of /proc makes no new directories there); ` +
          "make its directory writable by the server, or set `keyFile` in token-auth's config to a path that is",
      ),
    );
  }, TEST_TIMEOUT_MS);

  it('exits 1 naming the snapshot file when it would lie in a new directory under /proc', async () => {
    const snapshotFile = '/proc/sluice-state/snapshot.json';
    const finished = await start(dir, { SLUICE_SNAPSHOT_FILE: snapshotFile });
    expect(finished.code).toBe(1);
    expect(errorLines(finished.stdout)).toEqual(
      startFailure(
        'SLUICE_SNAPSHOT_INVALID',
        `${snapshotFile}: cannot create the snapshot's directory (cannot create the directory /proc/sluice-state: the filesystem of /proc makes no new directories there); ` +
          'set `snapshot.file` to a path in a writable directory, or turn snapshots off with `snapshot.enabled: false`',
      ),
    );
  }, TEST_TIMEOUT_MS);

  it('says why and exits 1 when start-up waits on a promise nothing can settle', async () => {
    // An executor whose load never settles, for a model of the store: nothing bounds a model's load.
    const source = "export default { register(c) { c.executor({ name: 'stuck', load: () => new Promise(() => {}) }); } };\n";
    await writePluginFolder(join(dir, 'stuck'), { name: 'stuck', provides: [{ point: 'executor', name: 'stuck' }] }, source);
    await cp(join(packageRoot(), 'model-store', 'iris'), join(dir, 'model-store', 'iris'), { recursive: true });
    const manifest = join(dir, 'model-store', 'iris', 'model.yaml');
    await writeFile(manifest, `${await readFile(manifest, 'utf8')}executor: stuck\n`);
    const finished = await start(dir, { SLUICE_PLUGINS: '[{"path": "./stuck"}]' });
    expect(finished).toMatchObject({
      code: 1,
      stderr:
        'sluice: stopped unfinished: the process ran out of work while still waiting for a promise that can no longer settle ' +
        "(a plugin's model load or onShutdown callback that never resolves, for example); fix or remove that plugin\n",
    });
  }, TEST_TIMEOUT_MS);
});

describe('sluice start in the background from a folder where .sluice cannot be created', () => {
  it('exits 1 with a sluice: line naming the folder, starting nothing, when that folder is /proc', async () => {
    expect(await runCli(['start'], '/proc', {}, HANG_LIMIT_MS)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "sluice: cannot create /proc/.sluice for the server's pid and log files (cannot create the directory /proc/.sluice: the filesystem of /proc makes no new directories there); " +
        'start from a folder where it can be created (it lies beside the config file, or in the working directory without one), or use --foreground\n',
    });
  }, TEST_TIMEOUT_MS);
});
