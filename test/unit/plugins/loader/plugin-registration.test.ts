import { describe, expect, it } from '@jest/globals';
import { createPluginContext } from '../../../../src/plugins/loader/plugin-registration.js';
import type { PluginManifest } from '../../../../src/plugins/loader/plugin-manifest.js';
import type { PluginContext } from '../../../../src/sdk/plugin/plugin.js';
import { RecordingLogger } from '../../../support/recording-logger.js';

const manifest: PluginManifest = {
  name: 'sloppy',
  version: '1.0.0',
  sluice: '*',
  provides: [
    { point: 'handler', name: 'h' },
    { point: 'auth', name: 'a' },
    { point: 'node-handler', name: 'sloppy/n' },
    { point: 'endpoint', name: 'e' },
    { point: 'hook', name: 'preInfer' },
  ],
};

function registration(): ReturnType<typeof createPluginContext> {
  return createPluginContext({ manifest, config: {}, folder: '/plugins/sloppy', configDirectory: '/', sluiceVersion: '0.1.0', logger: new RecordingLogger() });
}

/** What a plugin written in JavaScript may hand over, whatever the SDK's types say. */
const loose = (value: unknown): never => value as never;

const handler = { name: 'h', preprocess: () => Promise.resolve([]), postprocess: () => Promise.resolve([]) };

function refusal(register: (context: PluginContext) => void): unknown {
  try {
    register(registration().context);
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
  return 'registered';
}

describe('the register context refuses an extension of the wrong shape, naming the plugin and what is wrong', () => {
  it('a handler without a postprocess function', () => {
    expect(refusal((c) => { c.handler(loose({ name: 'h', preprocess: handler.preprocess })); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers handler `h` without a `postprocess` function; a handler needs `preprocess` and `postprocess`',
    });
  });

  it('an endpoint without a handle function', () => {
    expect(refusal((c) => { c.endpoint(loose({ name: 'e', api: 'inference', method: 'GET', path: '/e' })); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers endpoint `e` without a `handle` function; an endpoint needs `handle`',
    });
  });

  it('an extension that is not an object', () => {
    expect(refusal((c) => { c.handler(loose(null)); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: "plugin sloppy: registers a handler that is null; pass an object with the handler's `name` and methods",
    });
  });

  it('an extension without a name', () => {
    expect(refusal((c) => { c.handler(loose({ ...handler, name: undefined })); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers a handler without a `name`; give it the name its manifest declares in `provides`',
    });
  });

  it('an optional method that is not a function', () => {
    expect(refusal((c) => { c.auth(loose({ name: 'a', start: 'yes', authenticate: () => Promise.resolve({ subject: 's', scopes: [] }) })); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers auth `a` whose `start` is not a function; make it one or leave it out',
    });
  });

  it('a workflow node handler without its declared inputs and outputs', () => {
    expect(refusal((c) => { c.nodeHandler(loose({ name: 'sloppy/n', run: () => Promise.resolve({}) })); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers node-handler `sloppy/n` without `inputs` (a list of names) and `outputs` (an object by name); declare both',
    });
  });

  it('a hook listener that is not a function', () => {
    expect(refusal((c) => { c.hook('preInfer', loose(42)); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers a `preInfer` listener that is number; pass a function',
    });
  });

  it('a Nest module without a module class', () => {
    expect(refusal((c) => { c.nestModule('management', loose({ controllers: [] })); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers a Nest module without a `module` class; pass `{ module: YourModule, … }`',
    });
  });
});

describe('the register context takes each extension once', () => {
  it('refuses a handler registered twice by the same plugin', () => {
    expect(refusal((c) => { c.handler(handler); c.handler(handler); })).toEqual({
      code: 'SLUICE_PLUGIN_LOAD_FAILED',
      message: 'plugin sloppy: registers handler `h` twice; register each extension once',
    });
  });

  it('keeps the first registration of a well-formed handler', () => {
    const r = registration();
    r.context.handler(handler);
    expect(r.registrations.handlers).toEqual([handler]);
  });
});

describe('the register context once register() is over', () => {
  it('refuses a shutdown callback, which would never run', () => {
    const r = registration();
    r.close();
    expect(() => {
      r.context.onShutdown(() => undefined);
    }).toThrow('plugin sloppy: registered a shutdown callback after start-up; register everything inside register()');
    expect(r.registrations.shutdown).toEqual([]);
  });
});
