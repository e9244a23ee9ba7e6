import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { buildDemoModels, defaultModelStore } from '../../../scripts/build-demo-models.js';
import { makeTempDir } from '../../support/temp-dir.js';

describe('buildDemoModels', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let files: readonly string[];

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
    ({ files } = await buildDemoModels(dir));
  });

  afterAll(async () => {
    await cleanup();
  });

  it('writes the iris, iris-quick, mlp and cnn models, labels and manifests', () => {
    expect(files.map((file) => relative(dir, file)).sort()).toEqual([
      'cnn/model.onnx',
      'cnn/model.yaml',
      'iris-quick/labels.txt',
      'iris-quick/model.onnx',
      'iris-quick/model.yaml',
      'iris/labels.txt',
      'iris/model.onnx',
      'iris/model.yaml',
      'mlp/model.onnx',
      'mlp/model.yaml',
    ]);
  });

  // The committed files must be exactly what the scripts produce, so nobody edits them by hand.
  it.each([
    'iris/model.onnx',
    'iris/labels.txt',
    'iris/model.yaml',
    'iris-quick/model.onnx',
    'iris-quick/labels.txt',
    'iris-quick/model.yaml',
    'mlp/model.onnx',
    'mlp/model.yaml',
    'cnn/model.onnx',
    'cnn/model.yaml',
  ])(
    'committed model-store/%s equals a fresh build byte for byte',
    async (file) => {
      const fresh = await readFile(join(dir, file));
      const committed = await readFile(join(defaultModelStore(), file));
      expect(committed.equals(fresh)).toBe(true);
    },
  );
});
