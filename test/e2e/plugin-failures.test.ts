import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ConfigLayer, PluginEntryConfig } from '../../src/config/sluice-config.js';
import { isSluiceError } from '../../src/sdk/errors/index.js';
import { TYPESCRIPT_THREAD_ARGV } from '../support/handlers/typescript-threads.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const REGISTERS_NOTHING = 'export default { register() {} };\n';

/** Starts a server with the plugin folders `write` creates under `<dir>/plugins`, listed as `entries`. */
async function startWith(write: (pluginsDir: string) => Promise<unknown>, entries: (pluginsDir: string) => PluginEntryConfig[], logger = new RecordingLogger(), config: ConfigLayer = {}): Promise<TestServer> {
  const temp = await makeTempDir('sluice-plugins-');
  const pluginsDir = join(temp.dir, 'plugins');
  await write(pluginsDir);
  try {
    const t = await startTestServer({ demoModels: ['iris'], logger, config: { ...config, plugins: entries(pluginsDir) } });
    return { ...t, close: async () => { await t.close(); await temp.cleanup(); } };
  } catch (error) {
    await temp.cleanup();
    throw error;
  }
}

/** The refusal a start fails with: its code and message. */
async function refusal(
  write: (pluginsDir: string) => Promise<unknown>,
  entries: (pluginsDir: string) => PluginEntryConfig[],
  options: { logger?: RecordingLogger; config?: ConfigLayer } = {},
): Promise<{ code: string; message: string }> {
  try {
    const t = await startWith(write, entries, options.logger, options.config);
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
    expect(problem).toEqual({ code: 'SLUICE_PLUGIN_INVALID', message: 'plugin shadow: endpoint `ping` (GET /ping) on the inference port would shadow the core route GET /ping; choose another path' });
  });

  it('a register() that never settles, once pluginLoadTimeoutMs has passed', async () => {
    const source = 'export default { register() { return new Promise(() => {}); } };\n';
    const problem = await refusal((d) => writePluginFolder(join(d, 'stuck'), { name: 'stuck' }, source), (d) => at(d, 'stuck'), { config: { pluginLoadTimeoutMs: 200 } });
    expect(problem).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin stuck: register() did not finish within 0.2 s; make it finish (start long work in the background instead of awaiting it), or raise `pluginLoadTimeoutMs`',
    });
  });

  it('an entry module whose top-level await never settles, once pluginLoadTimeoutMs has passed', async () => {
    const source = 'await new Promise(() => {});\nexport default { register() {} };\n';
    const problem = await refusal((d) => writePluginFolder(join(d, 'frozen'), { name: 'frozen' }, source), (d) => at(d, 'frozen'), { config: { pluginLoadTimeoutMs: 200 } });
    expect(problem).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: expect.stringMatching(/^plugin frozen: its entry module .*frozen\/index\.js \(field `main`\) did not finish loading within 0\.2 s; /) as unknown,
    });
  });

  it('a handler name another plugin already provides', async () => {
    const source = "export default { register(c) { c.handler({ name: 'classifier', preprocess: async () => [], postprocess: async () => [] }); } };\n";
    const problem = await refusal((d) => writePluginFolder(join(d, 'copycat'), { name: 'copycat', provides: [{ point: 'handler', name: 'classifier' }] }, source), (d) => at(d, 'copycat'));
    expect(problem).toEqual({ code: 'SLUICE_PLUGIN_INVALID', message: 'handler `classifier` is provided by both plugin builtin-handlers@0.1.0 and plugin copycat@1.0.0; remove one of them' });
  });

  it('a package that is not installed', async () => {
    const problem = await refusal(() => Promise.resolve(), (d) => [{ package: 'sluice-plugin-nowhere', from: d }]);
    expect(problem).toEqual({
      code: 'SLUICE_CONFIG_INVALID',
      message: expect.stringMatching(/^`plugins\[0\]\.package`: package `sluice-plugin-nowhere` is not installed \(no node_modules\/sluice-plugin-nowhere in .*\/plugins or a folder above it\); /) as unknown,
    });
  });
});

/** A plugin source registering one endpoint per `[api, method, path]`, named `e0`, `e1`, … */
function endpointsSource(routes: readonly (readonly [string, string, string])[]): string {
  const calls = routes.map(([api, method, path], i) => `c.endpoint({ name: 'e${i}', api: '${api}', method: '${method}', path: '${path}', handle: async () => ({}) });`);
  return `export default { register(c) { ${calls.join(' ')} } };\n`;
}

const endpointManifest = (name: string, count: number): Record<string, unknown> => ({ name, provides: Array.from({ length: count }, (_, i) => ({ point: 'endpoint', name: `e${i}` })) });

describe('a plugin endpoint on a taken route refuses the start before any port opens', () => {
  async function clash(routes: readonly (readonly [string, string, string])[]): Promise<{ code: string; message: string; listening: number }> {
    const logger = new RecordingLogger();
    const problem = await refusal((d) => writePluginFolder(join(d, 'clash'), endpointManifest('clash', routes.length), endpointsSource(routes)), (d) => at(d, 'clash'), { logger });
    return { ...problem, listening: logger.lines.filter((l) => l.message === 'listening').length };
  }

  it('a core route of the management port', async () => {
    expect(await clash([['management', 'GET', '/models']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (GET /models) on the management port would shadow the core route GET /models; choose another path',
      listening: 0,
    });
  });

  it('a core route with parameters, whatever their names', async () => {
    expect(await clash([['management', 'DELETE', '/models/:id/:v']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (DELETE /models/:id/:v) on the management port would shadow the core route DELETE /models/{model}/{version}; choose another path',
      listening: 0,
    });
  });

  it('a route on the metrics port, which takes no plugin routes', async () => {
    expect(await clash([['metrics', 'GET', '/metrics/extra']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (GET /metrics/extra) names the API "metrics", whose port takes no plugin routes; set `api` to inference or management',
      listening: 0,
    });
  });

  it('a route another endpoint already takes on the same port', async () => {
    expect(await clash([['management', 'GET', '/hello/:name'], ['management', 'GET', '/hello/:who']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e1` (GET /hello/:who) on the management port would shadow GET /hello/:name of plugin clash; choose another path',
      listening: 0,
    });
  });

  it('a path that does not start with a slash', async () => {
    expect(await clash([['inference', 'GET', 'hello']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (GET hello) has a path that does not start with `/`; write it from the root of the port (`/hello/:name`)',
      listening: 0,
    });
  });

  it('a method spelled other than the SDK spells it, which would miss the clash with GET /ping', async () => {
    expect(await clash([['inference', 'get', '/ping']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (get /ping) has the method "get"; use one of GET, POST, PUT, DELETE, PATCH',
      listening: 0,
    });
  });

  it('a method no endpoint may have', async () => {
    expect(await clash([['inference', 'HEAD', '/hello']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (HEAD /hello) has the method "HEAD"; use one of GET, POST, PUT, DELETE, PATCH',
      listening: 0,
    });
  });

  it('a path with a query, which no request reaches', async () => {
    expect(await clash([['inference', 'GET', '/hello?name=x']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (GET /hello?name=x) has a path with a space, `?` or `#`, which no request reaches; write the path alone (`/hello/:name`) and read the query from `request.query`',
      listening: 0,
    });
  });

  it('an API that is no HTTP port', async () => {
    expect(await clash([['grpc', 'GET', '/hello']])).toEqual({
      code: 'SLUICE_PLUGIN_INVALID',
      message: 'plugin clash: endpoint `e0` (GET /hello) names the API "grpc"; set `api` to inference or management',
      listening: 0,
    });
  });
});

describe('plugin endpoints on free routes', () => {
  it('serve the same path on two ports', async () => {
    const routes = [['inference', 'GET', '/hello'], ['management', 'GET', '/hello']] as const;
    const t = await startWith((d) => writePluginFolder(join(d, 'twice'), endpointManifest('twice', 2), endpointsSource(routes)), (d) => at(d, 'twice'));
    try {
      expect((await requestJson(`${t.inference}/hello`)).status).toBe(200);
      expect((await requestJson(`${t.management}/hello`)).status).toBe(200);
    } finally {
      await t.close();
    }
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

describe('an optional plugin providing a handler another plugin provides', () => {
  let t: TestServer;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    const source = "export default { register(c) { c.handler({ name: 'classifier', preprocess: async () => [], postprocess: async () => [] }); } };\n";
    t = await startWith((d) => writePluginFolder(join(d, 'copycat'), { name: 'copycat', provides: [{ point: 'handler', name: 'classifier' }] }, source), (d) => [{ path: join(d, 'copycat'), optional: true }], logger);
  });
  afterAll(() => t.close());

  it('is skipped with a warning naming both plugins', () => {
    expect(logger.lines.filter((l) => l.message === 'optional plugin skipped').map((l) => l.fields)).toEqual([
      expect.objectContaining({ plugin: 'copycat', errorCode: 'SLUICE_PLUGIN_INVALID', error: 'handler `classifier` is provided by both plugin builtin-handlers@0.1.0 and plugin copycat@1.0.0; remove one of them' }),
    ]);
  });

  it('leaves the first plugin\'s handler serving', async () => {
    expect(await requestJson(`${t.inference}/predictions/iris`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] })).toMatchObject({ status: 200, body: { label: 'setosa' } });
  });
});

describe('a plugin whose shutdown callback never settles', () => {
  it('lets the server stop once pluginLoadTimeoutMs has passed, with a warning naming it', async () => {
    const logger = new RecordingLogger();
    const source = 'export default { register(c) { c.onShutdown(() => new Promise(() => {})); } };\n';
    const t = await startWith((d) => writePluginFolder(join(d, 'clingy'), { name: 'clingy' }, source), (d) => at(d, 'clingy'), logger, { pluginLoadTimeoutMs: 200 });
    await t.close();
    expect(logger.lines.filter((l) => l.message.startsWith('a plugin did not shut down')).map((l) => l.fields)).toEqual([expect.objectContaining({ plugin: 'clingy', limitMs: 200 })]);
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
    c.endpoint({ name: 'bad-header', api: 'inference', method: 'GET', path: '/faulty/note', handle: async () => ({ headers: { 'x-note': 'two\\nlines' }, body: 'note' }) });
  },
};
`;

  beforeAll(async () => {
    const temp = await makeTempDir('sluice-plugins-');
    const provides = [{ point: 'handler', name: 'faulty' }, { point: 'envelope', name: 'faulty-envelope' }, { point: 'endpoint', name: 'bad-header' }];
    await writePluginFolder(join(temp.dir, 'faulty'), { name: 'faulty', provides }, faulty);
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

  it('answers 500 SLUICE_PLUGIN_FAILED naming the plugin when its endpoint answers a header Node cannot send', async () => {
    const answer = await requestJson(`${t.inference}/faulty/note`);
    expect({ status: answer.status, note: answer.headers.get('x-note') }).toEqual({ status: 500, note: null });
    expect(answer.body).toMatchObject({
      errorCode: 'SLUICE_PLUGIN_FAILED',
      plugin: 'faulty',
      message:
        'plugin faulty: endpoint `bad-header` failed: its answer has the header "x-note" with a name or value HTTP cannot carry (a name that is no token, a value with a line break or another control character); fix it or leave it out',
    });
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

describe('a plugin handler that marks an error with a Sluice code', () => {
  let t: TestServer;
  // The same handler twice: on the event loop, and CPU-heavy on a handler thread.
  const marked = `
const refuse = async () => { throw Object.assign(new Error('the body is not a sonnet; send fourteen lines'), { code: 'SLUICE_REQUEST_INVALID' }); };
export const heavy = { name: 'marked-heavy', cpuHeavy: { module: import.meta.url, exportName: 'heavy' }, preprocess: refuse, postprocess: async () => [] };
const light = { name: 'marked-light', preprocess: refuse, postprocess: async () => [] };
export default { register(c) { c.handler(heavy); c.handler(light); } };
`;

  beforeAll(async () => {
    const temp = await makeTempDir('sluice-plugins-');
    await writePluginFolder(join(temp.dir, 'marked'), { name: 'marked', provides: [{ point: 'handler', name: 'marked-heavy' }, { point: 'handler', name: 'marked-light' }] }, marked);
    const server = await startTestServer({
      demoModels: ['iris'],
      config: { plugins: [{ path: join(temp.dir, 'marked') }] },
      handlerPool: { threads: 1, execArgv: TYPESCRIPT_THREAD_ARGV },
      prepare: async (store) => {
        const { cp, readFile, writeFile } = await import('node:fs/promises');
        const manifest = await readFile(join(store, 'iris', 'model.yaml'), 'utf8');
        for (const weight of ['heavy', 'light']) {
          await cp(join(store, 'iris'), join(store, weight), { recursive: true });
          await writeFile(join(store, weight, 'model.yaml'), manifest.replace('name: iris', `name: ${weight}`).replace('handler: classifier', `handler: marked-${weight}`));
        }
      },
    });
    t = { ...server, close: async () => { await server.close(); await temp.cleanup(); } };
  });
  afterAll(() => t.close());

  const refusal = { status: 400, body: { errorCode: 'SLUICE_REQUEST_INVALID', plugin: 'marked', message: 'the body is not a sonnet; send fourteen lines' } };

  it('answers with that code on the event loop', async () => {
    expect(await requestJson(`${t.inference}/predictions/light`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] })).toMatchObject(refusal);
  });

  it('answers with that code from a handler thread, as on the event loop', async () => {
    expect(await requestJson(`${t.inference}/predictions/heavy`, { method: 'POST', json: [5.1, 3.5, 1.4, 0.2] })).toMatchObject(refusal);
  });
});
