import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadTokenizer, textClassifierOptions } from '../../../../plugins/text-classifier/index.js';
import { defaultHandlerFixtureDir } from '../../../../scripts/build-handler-fixtures.js';
import type { ModelDescription } from '../../../../src/sdk/index.js';
import { handlerContext } from '../../../support/handlers/classifier-fixtures.js';
import { makeTempDir } from '../../../support/temp-dir.js';

let dir: string;
let cleanup: () => Promise<void>;
let model: ModelDescription;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  await cp(join(defaultHandlerFixtureDir(), 'sentiment'), dir, { recursive: true });
  model = {
    name: 'sentiment',
    version: '1.0',
    directory: dir,
    inputs: [{ name: 'input_ids', datatype: 'INT64', shape: [-1, 16] }],
    outputs: [{ name: 'logits', datatype: 'FP32', shape: [-1, 2] }],
  };
});
afterEach(async () => {
  await cleanup();
});

const options = (): ReturnType<typeof textClassifierOptions> => textClassifierOptions(handlerContext(model, { tokenizer: 'tokenizer.json' }));

describe('loadTokenizer', () => {
  it('finds one special token on each side of the text and the file’s padding id', async () => {
    const tokenizer = await loadTokenizer(model, options());
    expect([tokenizer.specialPrefix, tokenizer.specialSuffix, tokenizer.padId, tokenizer.encode('good')]).toEqual([1, 1, 0, [2, 4, 3]]);
  });

  it('reads the tokenizer again once its file changes', async () => {
    expect((await loadTokenizer(model, options())).encode('good')).toEqual([2, 4, 3]);
    const path = join(dir, 'tokenizer.json');
    const json = JSON.parse(await readFile(path, 'utf8')) as { model: { vocab: Record<string, number> } };
    json.model.vocab = { ...json.model.vocab, good: 8, bad: 4 };
    await writeFile(path, JSON.stringify(json));
    expect((await loadTokenizer(model, options())).encode('good')).toEqual([2, 8, 3]);
  });
});
