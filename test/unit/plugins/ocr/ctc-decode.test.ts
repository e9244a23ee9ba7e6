import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadCharacterList } from '../../../../plugins/ocr/ctc/character-table.js';
import { ctcDecodeHandler, ocrModelFiles } from '../../../../plugins/ocr/index.js';
import { float32ToFloat16Bits, type Tensor } from '../../../../src/sdk/index.js';
import { ocrNodeContext } from '../../../support/ocr/ocr-chain.js';
import { makeTempDir } from '../../../support/temp-dir.js';

const CLASSES = 6625;
const SPACE = CLASSES - 1;
let characters: readonly string[] = [];

/** The recogniser class of a character of the shipped list (the space is the last class). */
function classOf(character: string): number {
  return character === ' ' ? SPACE : characters.indexOf(character) + 1;
}

/** A recogniser output row for `text`: each character one step, a blank after each so repeated letters stay apart. */
function stepsFor(text: string): number[] {
  return Array.from(text).flatMap((character) => [classOf(character), 0]);
}

/** An FP32 `[rows, T, classCount]` output with probability 1 on each step's class; rows are padded with blanks to one T. */
function output(rows: readonly (readonly number[])[], classCount = CLASSES): Tensor {
  const steps = Math.max(...rows.map((row) => row.length));
  const data = new Float32Array(rows.length * steps * classCount);
  rows.forEach((row, r) => {
    row.forEach((c, t) => {
      data[(r * steps + t) * classCount + c] = 1;
    });
    for (let t = row.length; t < steps; t++) data[(r * steps + t) * classCount] = 1;
  });
  return { name: 'softmax_11.tmp_0', datatype: 'FP32', shape: [rows.length, steps, classCount], data };
}

async function decode(probabilities: unknown, config: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return { ...(await ctcDecodeHandler.run({ probabilities }, ocrNodeContext('decode', config))) };
}

beforeAll(async () => {
  characters = await loadCharacterList(ocrModelFiles().characters);
});

describe('ocr/ctc-decode', () => {
  it('maps classes to the shipped character list, the last class being a space', async () => {
    expect((await decode(output([stepsFor('HELLO 2024')]))).lines).toEqual(['HELLO 2024']);
  });

  it('decodes every row of a batched output as one line, in order', async () => {
    expect((await decode(output([stepsFor('top'), stepsFor('bottom')]))).lines).toEqual(['top', 'bottom']);
  });

  it('decodes a list of outputs as consecutive lines', async () => {
    const result = await decode([output([stepsFor('one'), stepsFor('two')]), output([stepsFor('three')])]);
    expect(result.lines).toEqual(['one', 'two', 'three']);
  });

  it('joins the lines with newlines as text', async () => {
    expect((await decode(output([stepsFor('top'), stepsFor('bottom')]))).text).toBe('top\nbottom');
  });

  it('scores each line by its mean winning probability', async () => {
    expect((await decode(output([stepsFor('ab'), [0, 0]]))).scores).toEqual([1, 0]);
  });

  it('decodes FP16 outputs', async () => {
    const fp32 = output([stepsFor('fp16')]);
    const fp16: Tensor = { ...fp32, datatype: 'FP16', data: Uint16Array.from(fp32.data as Float32Array, float32ToFloat16Bits) };
    expect((await decode(fp16)).lines).toEqual(['fp16']);
  });

  it('gives no lines and empty text for an empty list', async () => {
    expect(await decode([])).toEqual({ lines: [], scores: [], text: '' });
  });

  describe('with its own character list', () => {
    let dir = '';
    let cleanup: () => Promise<void> = () => Promise.resolve();

    beforeAll(async () => {
      ({ dir, cleanup } = await makeTempDir());
      await writeFile(join(dir, 'digits.txt'), '0\n1\n2\n');
    });
    afterAll(() => cleanup());

    it('reads the list the characters setting names', async () => {
      const result = await decode(output([[3, 3, 0, 3, 1, 2]], 4), { characters: join(dir, 'digits.txt') });
      expect(result.lines).toEqual(['2201']);
    });

    it('refuses a recogniser whose class count does not fit the list', async () => {
      await expect(decode(output([[1]], 9), { characters: join(dir, 'digits.txt') })).rejects.toMatchObject({ code: 'SLUICE_HANDLER_FAILED' });
    });
  });

  it('refuses an input that is not a tensor', async () => {
    await expect(decode('text')).rejects.toMatchObject({ code: 'SLUICE_REQUEST_INVALID', details: { input: 'probabilities' } });
  });
});
