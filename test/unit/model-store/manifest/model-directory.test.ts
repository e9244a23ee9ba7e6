import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { packageRoot } from '../../../../src/package-files/package-root.js';
import { loadManifest, loadModelDirectory } from '../../../../src/model-store/index.js';
import { IRIS_MANIFEST, writeIrisModel } from '../../../support/model-fixture.js';
import { makeTempDir } from '../../../support/temp-dir.js';
import { makeUnreadableDirectory } from '../../../support/unreadable-directory.js';

let root: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir: root, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

/** A directory holding only the demo MLP's `model.onnx`, as KServe's storage initializer leaves one. */
async function bareModelDirectory(): Promise<string> {
  const dir = join(root, 'models');
  await mkdir(dir);
  await copyFile(join(packageRoot(), 'model-store', 'mlp', 'model.onnx'), join(dir, 'model.onnx'));
  return dir;
}

async function refusal(dir: string, name: string): Promise<{ code: string; message: string }> {
  try {
    await loadModelDirectory(dir, name);
  } catch (error) {
    if (isSluiceError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('loadModelDirectory succeeded');
}

describe('loadModelDirectory', () => {
  it('makes a manifest for a directory that holds only model.onnx: the given name, version 1, passthrough, the model file named', async () => {
    const dir = await bareModelDirectory();
    const manifest = await loadModelDirectory(dir, 'digits');
    expect(manifest).toMatchObject({
      name: 'digits',
      version: '1',
      runtime: 'onnx',
      model: 'model.onnx',
      modelPath: join(dir, 'model.onnx'),
      handler: 'passthrough',
      executor: 'cpu',
      device: 'cpu',
      baseDir: dir,
      manifestPath: join(dir, 'model.onnx'),
    });
  });

  it('leaves the inputs and outputs of a made manifest to the model file, as a model.yaml that lists none does', async () => {
    const manifest = await loadModelDirectory(await bareModelDirectory(), 'digits');
    expect({ inputs: manifest.inputs, outputs: manifest.outputs }).toEqual({ inputs: undefined, outputs: undefined });
  });

  it('gives a made manifest the settings a model.yaml holding only name, version and model gets', async () => {
    const dir = await bareModelDirectory();
    const made = await loadModelDirectory(dir, 'digits', { workers: 3 });
    const written = join(root, 'written');
    await mkdir(written);
    await copyFile(join(dir, 'model.onnx'), join(written, 'model.onnx'));
    await writeFile(join(written, 'model.yaml'), 'name: digits\nversion: "1"\nmodel: model.onnx\n');
    const read = await loadManifest(written, { workers: 3 });
    const { baseDir: _a, manifestPath: _b, modelPath: _c, ...madeSettings } = made;
    const { baseDir: _d, manifestPath: _e, modelPath: _f, ...readSettings } = read;
    expect(madeSettings).toEqual(readSettings);
  });

  it('reads the model.yaml of a directory that has one, serving it under the given name', async () => {
    const dir = await writeIrisModel(join(root, 'iris'));
    const manifest = await loadModelDirectory(dir, 'flowers');
    expect(manifest).toMatchObject({ name: 'flowers', version: '1.0', labels: 'labels.txt', manifestPath: join(dir, 'model.yaml') });
  });

  it('keeps a model.yaml manifest frozen when it renames it', async () => {
    const manifest = await loadModelDirectory(await writeIrisModel(join(root, 'iris')), 'flowers');
    expect(Object.isFrozen(manifest)).toBe(true);
  });

  it('refuses a bad model.yaml as loading it would', async () => {
    const dir = await writeIrisModel(join(root, 'iris'), IRIS_MANIFEST.replace('version: "1.0"', 'version: 1.0'));
    const problem = await refusal(dir, 'iris');
    expect(problem.code).toBe('SLUICE_MANIFEST_INVALID');
    expect(problem.message).toContain('`version` must be a string');
  });

  it('refuses a name no model may have, naming the directory and the rule', async () => {
    const dir = await bareModelDirectory();
    expect(await refusal(dir, '../etc')).toEqual({
      code: 'SLUICE_MANIFEST_INVALID',
      message: `${dir}: cannot serve it as "../etc": a model name starts with a letter or digit and holds only letters, digits, '_', '.' and '-' (at most 128 characters); choose another name`,
    });
  });

  it('refuses a directory that holds neither file, listing what it holds', async () => {
    const dir = join(root, 'models');
    await mkdir(dir);
    await writeFile(join(dir, 'resnet.onnx'), 'bytes');
    await writeFile(join(dir, 'README'), 'text');
    expect(await refusal(dir, 'resnet')).toEqual({
      code: 'SLUICE_MANIFEST_NOT_FOUND',
      message: `${dir}: holds neither model.yaml nor model.onnx (it holds README, resnet.onnx); put the ONNX model there as model.onnx, or describe it in a model.yaml`,
    });
  });

  it('refuses an empty directory, saying it is empty', async () => {
    const dir = join(root, 'models');
    await mkdir(dir);
    expect((await refusal(dir, 'digits')).message).toContain('(it is empty)');
  });

  it('refuses a directory that does not exist', async () => {
    const dir = join(root, 'missing');
    expect(await refusal(dir, 'digits')).toEqual({
      code: 'SLUICE_MANIFEST_NOT_FOUND',
      message: `${dir}: no such model directory; give a directory that holds model.onnx or model.yaml`,
    });
  });

  it('refuses a model.onnx that is not a file, naming it', async () => {
    const dir = join(root, 'models');
    await mkdir(join(dir, 'model.onnx'), { recursive: true });
    const problem = await refusal(dir, 'digits');
    expect(problem).toEqual({ code: 'SLUICE_MANIFEST_INVALID', message: `${join(dir, 'model.onnx')}: \`model\` ("model.onnx") is not a regular file; point it at a file` });
  });

  it('refuses a directory it may not look into as unreadable', async () => {
    const dir = join(root, 'models');
    const restore = await makeUnreadableDirectory(dir);
    try {
      expect((await refusal(dir, 'digits')).code).toBe('SLUICE_MODEL_LOAD_FAILED');
    } finally {
      await restore();
    }
  });
});
