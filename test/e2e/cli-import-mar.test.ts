import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../support/cli-process.js';
import { coloursMar, marManifest } from '../support/mar-fixtures.js';
import { makeTempDir } from '../support/temp-dir.js';
import { buildZip } from '../support/zip-builder.js';

describe('sluice import-mar', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let dir = '';

  beforeAll(async () => {
    temp = await makeTempDir('sluice-import-mar-');
    dir = temp.dir;
    await mkdir(join(dir, 'model-store'));
    await writeFile(join(dir, 'colours.mar'), await coloursMar());
    await writeFile(join(dir, 'custom.mar'), await coloursMar([], { modelName: 'custom', handler: 'handler.py:handle' }));
    await writeFile(join(dir, 'resnet.mar'), buildZip([marManifest({ modelName: 'resnet', serializedFile: 'resnet.pt', handler: 'image_classifier' }), { name: 'resnet.pt', content: 'x' }]));
  });
  afterAll(() => temp.cleanup());

  it('converts an archive into <model store>/<model name>, with model.yaml and labels.txt', async () => {
    expect(await runCli(['import-mar', 'colours.mar'], dir)).toEqual({
      code: 0,
      stdout: `Imported colours 2.0 (handler image-classifier, 5 labels) into ${join(dir, 'model-store', 'colours')}\n`,
      stderr: '',
    });
    const manifest = await readFile(join(dir, 'model-store', 'colours', 'model.yaml'), 'utf8');
    expect(manifest).toMatch(/^name: colours\nversion: '2\.0'\n/);
    expect(manifest).toContain('model: colours.onnx\nhandler: image-classifier\nlabels: labels.txt\n');
  });

  it('refuses to write over an existing directory (exit 2)', async () => {
    const { code, stderr } = await runCli(['import-mar', 'colours.mar'], dir);
    expect({ code, stderr }).toEqual({ code: 2, stderr: `sluice: ${join(dir, 'model-store', 'colours')} already exists; remove it, or import into another directory with -o DIR\n` });
  });

  it('takes a Sluice handler for an archive whose handler is custom, and writes where -o says', async () => {
    expect(await runCli(['import-mar', 'custom.mar', '--handler', 'passthrough', '-o', 'converted'], dir)).toMatchObject({ code: 0 });
    expect(await readFile(join(dir, 'converted', 'model.yaml'), 'utf8')).toContain('handler: passthrough');
  });

  it('points an archive holding a PyTorch checkpoint to the export guide (exit 1)', async () => {
    const { code, stderr } = await runCli(['import-mar', 'resnet.mar'], dir);
    expect(code).toBe(1);
    expect(stderr).toContain('its serialized file is a PyTorch checkpoint ("resnet.pt"); Sluice runs ONNX models only: export the model to ONNX (torch.onnx.export)');
    expect(stderr).toMatch(/\[SLUICE_MAR_UNSUPPORTED\]\n$/);
  });
});
