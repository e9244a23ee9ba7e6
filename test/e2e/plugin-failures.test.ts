import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PluginEntryConfig } from '../../src/config/sluice-config.js';
import { isSluiceError } from '../../src/common/errors/index.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const REGISTERS_NOTHING = 'export default { register() {} };\n';

/** Starts a server with the plugin folders `write` creates under `<dir>/plugins`, listed as `entries`. */
async function startWith(write: (pluginsDir: string) => Promise<unknown>, entries: (pluginsDir: string) => PluginEntryConfig[], logger = new RecordingLogger()): Promise<TestServer> {
  const temp = await makeTempDir('sluice-plugins-');
  const pluginsDir = join(temp.dir, 'plugins');
  await write(pluginsDir);
  try {
    const t = await startTestServer({ demoModels: ['iris'], logger, config: { plugins: entries(pluginsDir) } });
    return { ...t, close: async () => { await t.close(); await temp.cleanup(); } };
  } catch (error) {
    await temp.cleanup();
    throw error;
  }
}

/** The refusal a start fails with: its code and message. */
async function refusal(write: (pluginsDir: string) => Promise<unknown>, entries: (pluginsDir: string) => PluginEntryConfig[]): Promise<{ code: string; message: string }> {
  try {
    const t = await startWith(write, entries);
    await t.close();
  } catch (error) {
    if (isSluiceError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('the server started');
}

const at = (dir: string, ...names: string[]): PluginEntryConfig[] => names.map((name) => ({ path: join(dir, name) }));

describe('a plugin that cannot be loaded refuses the start, naming the plugin and the field', () => {
  it('an invalid manifest', async () => {
    const problem = await refusal((d) => writePluginFolder(join(d, 'bad'), { name: 'bad', provides: [{ point: 'teleporter', name: 'x' }] }, REGISTERS_NOTHING), (d) => at(d, 'bad'));
    expect(problem.code).toBe('SLUICE_PLUGIN_INVALID');
    expect(problem.message).toMatch(/^plugin at .*bad: sluice-plugin.yaml: `provides\[0\]\.point` must be one of "endpoint", "auth", "envelope", "handler", "node-handler", "executor", "hook"/);
  });

  it('a Sluice range that excludes this version', async () => {
    const problem = await refusal((d) => writePluginFolder(join(d, 'future'), { name: 'future', sluice: '>=2.0.0' }, REGISTERS_NOTHING), (d) => at(d, 'future'));
    expect(problem).toEqual({ code: 'SLUICE_PLUGIN_INVALID', message: expect.stringMatching(/^plugin future@1\.0\.0 supports Sluice >=2\.0\.0 \(field `sluice`\), not this server's 0\.1\.0/) as unknown });
  });

  it('a missing dependency', async () => {
    const problem = await refusal((d) => writePluginFolder(join(d, 'needy'), { name: 'needy', dependencies: ['absent'] }, REGISTERS_NOTHING), (d) => at(d, 'needy'));
    expect(problem.message).toBe('plugin needy: `dependencies` names `absent`, which is not loaded; install or enable absent, or remove it from the list');
  });

  it('a dependency cycle', async () => {
    const problem = await refusal(
      async (d) => {
        await writePluginFolder(join(d, 'a'), { name: 'chicken', dependencies: ['egg'] }, REGISTERS_NOTHING);
        await writePluginFolder(join(d, 'b'), { name: 'egg', dependencies: ['chicken'] }, REGISTERS_NOTHING);
      },
      (d) => at(d, 'a', 'b'),
    );
    expect(problem.message).toBe('plugin chicken: `dependencies` form a cycle (chicken → egg → chicken); break it');
  });

  it('a register() that throws', async () => {
    const problem = await refusal((d) => writePluginFolder(join(d, 'boom'), { name: 'boom' }, "export default { register() { throw new Error('no licence key'); } };\n"), (d) => at(d, 'boom'));
    expect(problem).toEqual({ code: 'SLUICE_PLUGIN_LOAD_FAILED', message: 'plugin boom: register() failed: no licence key' });
  });

  it('a registration the manifest does not declare', async () => {
    const source = "export default { register(c) { c.envelope({ name: 'secret', decode: () => [], encode: () => ({ body: null }) }); } };\n";
    const problem = await refusal((d) => writePluginFolder(join(d, 'sly'), { name: 'sly' }, source), (d) => at(d, 'sly'));
    expect(problem.message).toBe('plugin sly: registers envelope `secret`, which its manifest does not declare; add {point: envelope, name: secret} to `provides`');
  });

  it('a declared extension that is never registered', async () => {
    const problem = await refusal((d) => writePluginFolder(join(d, 'lazy'), { name: 'lazy', provides: [{ point: 'handler', name: 'ghost' }] }, REGISTERS_NOTHING), (d) => at(d, 'lazy'));
    expect(problem.message).toBe('plugin lazy: its manifest declares handler `ghost` in `provides` but register() did not register it; register it or remove the entry');
  });

  it('an unknown hook', async () => {
    const source = "export default { register(c) { c.hook('onFullMoon', () => {}); } };\n";
    const problem = await refusal((d) => writePluginFolder(join(d, 'moon'), { name: 'moon', provides: [{ point: 'hook', name: 'onFullMoon' }] }, source), (d) => at(d, 'moon'));
    expect(problem.message).toMatch(/^plugin moon: there is no hook `onFullMoon`; hooks: onModelLoad, onModelUnload, preInfer, postInfer, onWorkflowNodeEnd/);
  });

  it('a config that breaks the plugin config schema', async () => {
    const manifest = { name: 'strict', config: { type: 'object', additionalProperties: false, properties: { level: { type: 'integer' } } } };
    const problem = await refusal((d) => writePluginFolder(join(d, 'strict'), manifest, REGISTERS_NOTHING), (d) => [{ path: join(d, 'strict'), config: { level: 'high' } }]);
    expect(problem.message).toBe('plugin strict: config: `level` must be integer (got "high")');
  });

  it('an endpoint on the path of a core route', async () => {
    const source = "export default { register(c) { c.endpoint({ name: 'ping', api: 'inference', method: 'GET', path: '/ping', handle: async () => ({ body: 'pong' }) }); } };\n";
    const problem = await refusal((d) => writePluginFolder(join(d, 'shadow'), { name: 'shadow', provides: [{ point: 'endpoint', name: 'ping' }] }, source), (d) => at(d, 'shadow'));
    expect(problem.message).toBe('plugin shadow: endpoint `ping` (GET /ping) would shadow the core route GET /ping; choose another path');
  });

  it('a handler name another plugin already provides', async () => {
    const source = "export default { register(c) { c.handler({ name: 'classifier', preprocess: async () => [], postprocess: async () => [] }); } };\n";
    const problem = await refusal((d) => writePluginFolder(join(d, 'copycat'), { name: 'copycat', provides: [{ point: 'handler', name: 'classifier' }] }, source), (d) => at(d, 'copycat'));
    expect(problem.message).toBe('handler `classifier` is provided by both plugin builtin-handlers@0.1.0 and plugin copycat@1.0.0; remove one of them');
  });

  it('a package that is not installed', async () => {
    const problem = await refusal(() => Promise.resolve(), (d) => [{ package: 'sluice-plugin-nowhere', from: d }]);
    expect(problem.message).toMatch(/^plugin package sluice-plugin-nowhere \(`plugins\[0\]`\): no node_modules\/sluice-plugin-nowhere in .* or a folder above it; install the package$/);
  });
});

describe('an optional plugin that cannot be loaded', () => {
  let t: TestServer;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    t = await startWith(
      async (d) => {
        await writePluginFolder(join(d, 'boom'), { name: 'boom' }, "export default { register() { throw new Error('no licence key'); } };\n");
        await writePluginFolder(join(d, 'fine'), { name: 'fine' }, REGISTERS_NOTHING);
      },
      (d) => [{ path: join(d, 'boom'), optional: true }, { path: join(d, 'fine') }],
      logger,
    );
  });
  afterAll(() => t.close());

  it('is skipped with a warning naming it and the reason', () => {
    expect(logger.lines.filter((l) => l.message === 'optional plugin skipped').map((l) => l.fields)).toEqual([
      expect.objectContaining({ plugin: 'boom', errorCode: 'SLUICE_PLUGIN_LOAD_FAILED', error: 'plugin boom: register() failed: no licence key' }),
    ]);
  });

  it('leaves the server serving, with the other plugins', async () => {
    expect(t.server.plugins.plugins.map((p) => p.name)).toEqual(expect.arrayContaining(['fine', 'builtin-handlers']));
    expect(t.server.plugins.plugins.map((p) => p.name)).not.toContain('boom');
    expect((await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] })).status).toBe(200);
  });
});

describe('a built-in plugin disabled in the config', () => {
  it('is not loaded', async () => {
    const t = await startTestServer({ demoModels: ['iris'], config: { plugins: [{ name: 'gpu-executor', enabled: false }] } });
    try {
      expect(t.server.plugins.plugins.map((p) => p.name)).not.toContain('gpu-executor');
    } finally {
      await t.close();
    }
  });
});

describe('a plugin that throws while serving a request', () => {
  let t: TestServer;
  const faulty = `
export default {
  register(c) {
    c.handler({ name: 'faulty', preprocess: async () => { throw new TypeError('cannot read the body'); }, postprocess: async () => [] });
    c.envelope({ name: 'faulty-envelope', decode: () => { throw new RangeError('broken decoder'); }, encode: () => ({ body: null }) });
  },
};
`;

  beforeAll(async () => {
    const temp = await makeTempDir('sluice-plugins-');
    await writePluginFolder(join(temp.dir, 'faulty'), { name: 'faulty', provides: [{ point: 'handler', name: 'faulty' }, { point: 'envelope', name: 'faulty-envelope' }] }, faulty);
    const server = await startTestServer({
      demoModels: ['iris'],
      config: { plugins: [{ path: join(temp.dir, 'faulty') }] },
      prepare: async (store) => {
        const { cp, readFile, writeFile } = await import('node:fs/promises');
        await cp(join(store, 'iris'), join(store, 'broken'), { recursive: true });
        const manifest = await readFile(join(store, 'broken', 'model.yaml'), 'utf8');
        await writeFile(join(store, 'broken', 'model.yaml'), manifest.replace('name: iris', 'name: broken').replace('handler: classifier', 'handler: faulty'));
      },
    });
    t = { ...server, close: async () => { await server.close(); await temp.cleanup(); } };
  });
  afterAll(() => t.close());

  it('answers 500 SLUICE_PLUGIN_FAILED naming the plugin when its handler throws', async () => {
    const answer = await requestJson(`${t.inference}/predictions/broken`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ errorCode: 'SLUICE_PLUGIN_FAILED', plugin: 'faulty', message: 'plugin faulty: handler `faulty` (preprocess) failed: cannot read the body' });
  });

  it('answers 500 SLUICE_PLUGIN_FAILED naming the plugin when its envelope throws', async () => {
    const answer = await requestJson(`${t.inference}/predictions/iris?envelope=faulty-envelope`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] });
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ errorCode: 'SLUICE_PLUGIN_FAILED', plugin: 'faulty', message: 'plugin faulty: envelope `faulty-envelope` (decode) failed: broken decoder' });
  });

  it('leaves other requests and models unaffected', async () => {
    const [bad, good] = await Promise.all([
      requestJson(`${t.inference}/predictions/broken`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] }),
      requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] }),
    ]);
    expect(bad.status).toBe(500);
    expect(good).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });
});
