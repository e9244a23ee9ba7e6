import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../src/config/index.js';
import { startServer } from '../../src/server/sluice-server.js';
import { isAbandonedStart } from '../../src/server/start-abandonment.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';

/** A plugin whose `onShutdown` creates `shut-down` beside its module. */
const SHUTS_DOWN = "import { writeFileSync } from 'node:fs';\nexport default { register(c) { c.onShutdown(() => { writeFileSync(new URL('./shut-down', import.meta.url), ''); }); } };\n";
/** Registers a shutdown callback as `SHUTS_DOWN` does, creates `registering`, then never finishes `register()`. */
const NEVER_REGISTERS =
  "import { writeFileSync } from 'node:fs';\n" +
  "export default { register(c) { c.onShutdown(() => { writeFileSync(new URL('./shut-down', import.meta.url), ''); }); writeFileSync(new URL('./registering', import.meta.url), ''); return new Promise(() => {}); } };\n";
const FAILS_TO_REGISTER = "export default { register() { throw new Error('no licence'); } };\n";

const exists = (file: string): Promise<boolean> => access(file).then(() => true, () => false);

describe('plugins loaded by a start-up that ends while plugins are still loading', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => ({ dir, cleanup } = await makeTempDir('sluice-plugins-')));
  afterEach(() => cleanup());

  /** Starts a server with only the plugins `first` (source `SHUTS_DOWN`) and `second` (after it), on free ports. */
  async function start(second: string, abandon?: AbortSignal): Promise<unknown> {
    await writePluginFolder(join(dir, 'first'), { name: 'first' }, SHUTS_DOWN);
    await writePluginFolder(join(dir, 'second'), { name: 'second', dependencies: ['first'] }, second);
    await mkdir(join(dir, 'no-builtins'));
    const listener = { host: '127.0.0.1', port: 0 };
    const config = loadConfig({
      cwd: dir,
      env: {},
      overrides: {
        inference: listener, management: listener, metrics: listener, grpc: { inference: listener, management: listener },
        modelStore: dir, models: [], workflows: [], pluginLoadTimeoutMs: 60_000,
        auth: { inference: 'none', management: 'none', metrics: 'none' },
        plugins: [{ path: './first' }, { path: './second' }],
      },
    });
    return startServer({ config, logger: new RecordingLogger(), pluginsDir: join(dir, 'no-builtins'), configDirectory: dir, ...(abandon ? { abandon } : {}) }).then(
      (server) => server.stop().then(() => 'started'),
      (error: unknown) => error,
    );
  }

  it('given up during a register() that never ends, shuts down the plugins loaded and what the stuck one registered', async () => {
    const abandonment = new AbortController();
    const started = start(NEVER_REGISTERS, abandonment.signal);
    while (!(await exists(join(dir, 'second', 'registering')))) await new Promise((resolve) => setTimeout(resolve, 20));
    abandonment.abort();
    expect(isAbandonedStart(await started)).toBe(true);
    expect([await exists(join(dir, 'first', 'shut-down')), await exists(join(dir, 'second', 'shut-down'))]).toEqual([true, true]);
  });

  it('failed by a plugin that cannot register, shuts down the plugins loaded before it', async () => {
    expect(await start(FAILS_TO_REGISTER)).toMatchObject({ code: 'SLUICE_PLUGIN_LOAD_FAILED', message: 'plugin second: register() failed: no licence' });
    expect(await exists(join(dir, 'first', 'shut-down'))).toBe(true);
  });
});
