import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { loadManifest } from '../../src/model-store/index.js';
import { runCli } from '../support/cli-process.js';
import { writeAddModel, writeGarbageModel } from '../support/onnx-models.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('sluice init', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir('sluice-init-'));
    await mkdir(join(dir, 'my adder'));
    await rename(await writeAddModel(join(dir, 'my adder')), join(dir, 'my adder', 'model.onnx'));
  });
  afterEach(() => cleanup());

  it('writes the made manifest as model.yaml, with the inputs and outputs of the model file, and it loads', async () => {
    const { code, stdout } = await runCli(['init', 'my adder/model.onnx'], dir);
    expect(code).toBe(0);
    expect(stdout).toBe(`Wrote ${join(dir, 'my adder', 'model.yaml')} (my-adder 1, 2 inputs, 1 outputs); edit it, then serve the directory\n`);
    const manifest = await loadManifest(join(dir, 'my adder'));
    expect(manifest).toMatchObject({ name: 'my-adder', version: '1', model: 'model.onnx', handler: 'passthrough' });
    expect(manifest.inputs).toEqual([
      { name: 'a', datatype: 'FP32', shape: [-1, 3] },
      { name: 'b', datatype: 'FP32', shape: [-1, 3] },
    ]);
    expect(manifest.outputs).toEqual([{ name: 'sum', datatype: 'FP32', shape: [-1, 3] }]);
  });

  it('takes --name, and a model file of another name', async () => {
    await rename(join(dir, 'my adder', 'model.onnx'), join(dir, 'my adder', 'add.onnx'));
    expect((await runCli(['init', 'my adder/add.onnx', '--name', 'summer'], dir)).code).toBe(0);
    expect(await loadManifest(join(dir, 'my adder'))).toMatchObject({ name: 'summer', model: 'add.onnx' });
  });

  it('never overwrites a model.yaml', async () => {
    await writeFile(join(dir, 'my adder', 'model.yaml'), '# mine\n');
    const { code, stderr } = await runCli(['init', 'my adder/model.onnx'], dir);
    expect(code).toBe(2);
    expect(stderr).toBe(`sluice: ${join(dir, 'my adder', 'model.yaml')} already exists; edit it, or remove it first to have a new one written\n`);
    expect(await readFile(join(dir, 'my adder', 'model.yaml'), 'utf8')).toBe('# mine\n');
  });

  it('refuses a file that is no ONNX model, and writes nothing', async () => {
    const garbage = await writeGarbageModel(join(dir, 'my adder'));
    const { code, stderr } = await runCli(['init', garbage], dir);
    expect(code).toBe(1);
    expect(stderr).toContain(garbage);
    expect(existsSync(join(dir, 'my adder', 'model.yaml'))).toBe(false);
  });

  it('refuses a path that is no file, and a name no model may have', async () => {
    expect(await runCli(['init', 'missing.onnx'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining(`${join(dir, 'missing.onnx')} is not a file`) as unknown });
    expect(await runCli(['init', 'my adder/model.onnx', '--name', 'bad name'], dir)).toMatchObject({ code: 2, stderr: expect.stringContaining('--name "bad name" is no model name') as unknown });
  });
});
