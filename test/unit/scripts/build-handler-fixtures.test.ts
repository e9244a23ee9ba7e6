import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { buildHandlerFixtures, defaultHandlerFixtureDir } from '../../../scripts/build-handler-fixtures.js';
import { makeTempDir } from '../../support/temp-dir.js';

const FILES = [
  'colours/labels.txt',
  'colours/model.onnx',
  'colours/model.yaml',
  'sentiment/labels.txt',
  'sentiment/model.onnx',
  'sentiment/model.yaml',
  'sentiment/tokenizer.json',
];

describe('buildHandlerFixtures', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let files: readonly string[];

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
    files = await buildHandlerFixtures(dir);
  });

  afterAll(async () => {
    await cleanup();
  });

  it('writes the colours and sentiment models, labels, tokenizer and manifests', () => {
    expect(files.map((file) => relative(dir, file)).sort()).toEqual(FILES);
  });

  // The committed files must be exactly what the scripts produce, so nobody edits them by hand.
  it.each(FILES)('committed test/fixtures/handler-models/%s equals a fresh build byte for byte', async (file) => {
    const fresh = await readFile(join(dir, file));
    const committed = await readFile(join(defaultHandlerFixtureDir(), file));
    expect(committed.equals(fresh)).toBe(true);
  });
});
