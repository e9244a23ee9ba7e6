import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Handler, HandlerRequest, PreparedRequest } from '../../src/sdk/handler/handler.js';
import { writePluginFolder } from '../support/plugin-folder.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { makeTempDir } from '../support/temp-dir.js';
import { requestJson, startTestServer, type TestServer } from '../support/test-server.js';

const SETOSA = [5.1, 3.5, 1.4, 0.2];

/**
 * A plugin whose handler `meddler` does to its context what the request's `do` says before preparing a
 * well-formed iris row (or, for the malformed kinds, a tensor that does not hold what it says), and whose
 * preInfer hook renames the first input of every model it is told of.
 */
const MEDDLER = `
const row = () => ({ name: 'input', datatype: 'FP32', shape: [1, 4], data: new Float32Array([5.1, 3.5, 1.4, 0.2]) });
const meddle = {
  'rename-input': (c) => { c.model.inputs[0].name = 'renamed'; },
  'reshape-input': (c) => { c.model.inputs[0].shape[1] = 5; },
  'add-input': (c) => { c.model.inputs.push({ name: 'extra', datatype: 'FP32', shape: [-1, 1] }); },
  'rename-model': (c) => { c.model.name = 'other'; },
  'replace-model': (c) => { c.model = { name: 'other' }; },
  'set-config': (c) => { c.config.extra = 1; },
};
const malformed = {
  'float64-data': { name: 'input', datatype: 'FP32', shape: [1, 4], data: new Float64Array([5.1, 3.5, 1.4, 0.2]) },
  'list-data': { name: 'input', datatype: 'FP32', shape: [1, 4], data: [5.1, 3.5, 1.4, 0.2] },
  'short-data': { name: 'input', datatype: 'FP32', shape: [1, 4], data: new Float32Array([5.1, 3.5, 1.4]) },
  'fractional-shape': { name: 'input', datatype: 'FP32', shape: [0.5, 8], data: new Float32Array(4) },
};
export default {
  register(c) {
    c.handler({
      name: 'meddler',
      async preprocess(requests, context) {
        return requests.map((request) => {
          meddle[request.body.do]?.(context);
          return { inputs: [malformed[request.body.do] ?? row()] };
        });
      },
      async postprocess(results) {
        if (results[0]?.request.body.do === 'no-answers') return [];
        return results.map((result) => (result.request.body.do === 'undefined-answer' ? undefined : 'served'));
      },
    });
    c.hook('preInfer', (event) => { event.model.inputs[0].name = 'renamed-by-hook'; });
  },
};
`;

/** An embedder's handler (no plugin) preparing a tensor whose data is a Float64Array for an FP32 input. */
const WRONG_ARRAY: Handler = {
  name: 'wrong-array',
  preprocess: (requests: readonly HandlerRequest[]): Promise<readonly PreparedRequest[]> =>
    Promise.resolve(requests.map(() => ({ inputs: [{ name: 'input', datatype: 'FP32', shape: [1, 4], data: new Float64Array(SETOSA) as unknown as Float32Array }] }))),
  postprocess: (results) => Promise.resolve(results.map(() => 'served')),
};

/** Copies the iris model as `name`, served by `handler`. */
async function irisServedBy(store: string, name: string, handler: string): Promise<void> {
  await cp(join(store, 'iris'), join(store, name), { recursive: true });
  const manifest = await readFile(join(store, 'iris', 'model.yaml'), 'utf8');
  await writeFile(join(store, name, 'model.yaml'), manifest.replace('name: iris', `name: ${name}`).replace('handler: classifier', `handler: ${handler}`));
}

let t: TestServer;
const logger = new RecordingLogger();
const predict = (model: string, body: unknown): ReturnType<typeof requestJson> => requestJson(`${t.inference}/predictions/${model}`, { method: 'POST', json: body });

beforeAll(async () => {
  const temp = await makeTempDir('sluice-plugins-');
  await writePluginFolder(join(temp.dir, 'meddler'), { name: 'meddler', provides: [{ point: 'handler', name: 'meddler' }, { point: 'hook', name: 'preInfer' }] }, MEDDLER);
  const server = await startTestServer({
    demoModels: ['iris'],
    logger,
    handlers: [WRONG_ARRAY],
    config: { plugins: [{ path: join(temp.dir, 'meddler') }] },
    prepare: async (store) => {
      await irisServedBy(store, 'meddled', 'meddler');
      await irisServedBy(store, 'embedded', 'wrong-array');
    },
  });
  t = { ...server, close: async () => { await server.close(); await temp.cleanup(); } };
});
afterAll(() => t.close());

describe('a plugin handler that writes to what every request of its model shares', () => {
  it.each([
    ['renames an input of its model', 'rename-input', "Cannot assign to read only property 'name' of object '#<Object>'"],
    ['changes a dimension of an input', 'reshape-input', "Cannot assign to read only property '1' of object '[object Array]'"],
    ['adds an input to its model', 'add-input', 'Cannot add property 1, object is not extensible'],
    ['renames its model', 'rename-model', "Cannot assign to read only property 'name' of object '#<Object>'"],
    ['replaces the model of its context', 'replace-model', 'Cannot set property model of #<PartialHandlerContext> which has only a getter'],
    ['adds a setting to its config', 'set-config', 'Cannot add property extra, object is not extensible'],
  ])('fails its own request, as the plugin\'s failure, when it %s', async (_case, meddle, reason) => {
    expect(await predict('meddled', { do: meddle })).toMatchObject({
      status: 500,
      body: { errorCode: 'SLUICE_PLUGIN_FAILED', plugin: 'meddler', message: `plugin meddler: handler \`meddler\` (preprocess) failed: ${reason}` },
    });
  });

  it('leaves the model as it was for the requests that follow', async () => {
    for (const meddle of ['rename-input', 'reshape-input', 'add-input', 'rename-model', 'replace-model', 'set-config']) await predict('meddled', { do: meddle });
    expect(await predict('meddled', {})).toEqual(expect.objectContaining({ status: 200, body: 'served' }));
    expect((await requestJson(`${t.inference}/v2/models/meddled`)).body).toMatchObject({ name: 'meddled', inputs: [{ name: 'input', datatype: 'FP32', shape: [-1, 4] }] });
  });
});

describe('a plugin hook that writes to the model of its event', () => {
  it('fails on its own, logged as that plugin\'s failure, and every request of the model is still served', async () => {
    for (let i = 0; i < 3; i++) expect(await predict('iris', SETOSA)).toMatchObject({ status: 200, body: { label: 'setosa' } });
    const failures = logger.lines.filter((l) => l.message === 'a plugin hook failed; the request was not affected');
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(failures[0]?.fields).toEqual({ plugin: 'meddler', hook: 'preInfer', error: "Cannot assign to read only property 'name' of object '#<Object>'" });
  });
});

describe('a handler whose postprocess gives no answer', () => {
  it.each(['undefined-answer', 'no-answers'])('is answered as the plugin\'s failure, not with an empty 200 (%s)', async (kind) => {
    expect(await predict('meddled', { do: kind })).toMatchObject({
      status: 500,
      body: {
        errorCode: 'SLUICE_PLUGIN_FAILED',
        plugin: 'meddler',
        message: 'plugin meddler: handler `meddler` (postprocess) failed: it returned no answer for the request (undefined, or fewer answers than requests)',
      },
    });
  });
});

describe('a handler whose preprocess returns a tensor that does not hold what it says', () => {
  it.each([
    ['its data a typed array of another datatype', 'float64-data', 'its data is a Float64Array, not a Float32Array'],
    ['its numeric data a plain list', 'list-data', 'its data is a list, not a Float32Array'],
    ['fewer values than its shape needs', 'short-data', 'its shape [1,4] needs 4 values, and its data holds 3'],
    ['a shape with a dimension that is not a size', 'fractional-shape', 'its shape [0.5,8] holds a dimension that is not a size (a whole number, 0 or more)'],
  ])('is answered as the plugin\'s failure, not the client\'s, when it has %s', async (_case, kind, problem) => {
    expect(await predict('meddled', { do: kind })).toMatchObject({
      status: 500,
      body: {
        errorCode: 'SLUICE_PLUGIN_FAILED',
        plugin: 'meddler',
        message: `plugin meddler: handler \`meddler\` (preprocess) failed: its input \`input\` does not hold what its datatype and shape say: ${problem}`,
      },
    });
  });

  it('is answered SLUICE_HANDLER_FAILED naming the handler when the handler is no plugin\'s', async () => {
    expect(await predict('embedded', SETOSA)).toMatchObject({
      status: 500,
      body: {
        errorCode: 'SLUICE_HANDLER_FAILED',
        message: 'handler `wrong-array` of model `embedded` failed in preprocess: its input `input` does not hold what its datatype and shape say: its data is a Float64Array, not a Float32Array',
      },
    });
  });
});
