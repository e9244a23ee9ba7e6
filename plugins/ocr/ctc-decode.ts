import { float16BitsToNumber, type NodeHandler } from '../../src/sdk/index.js';
import { classCharacters, loadCharacterList } from './ctc/character-table.js';
import { greedyCtc } from './ctc/greedy-ctc.js';
import { stringOption } from './handler-options.js';
import { ocrModelFiles } from './model-files.js';
import { readNumericTensor, tensorsOf } from './node-inputs.js';

const NAME = 'ocr/ctc-decode';

function valuesOf(data: ArrayLike<number>, datatype: string): ArrayLike<number> {
  return datatype === 'FP16' ? Float32Array.from(data as Uint16Array, float16BitsToNumber) : data;
}

/**
 * `ocr/ctc-decode`: recogniser outputs → text.
 *
 * Input `probabilities`: the recogniser output, FP32 or FP16 `[N, T, C]`, or a list of them (as a
 * `forEach` over lines collects them); every row of every tensor is one line, in order. Outputs `lines`,
 * the decoded text of each line; `scores`, each line's mean winning probability (0 for an empty line);
 * and `text`, the lines joined with newlines. Setting `characters`: the character list file (default: the
 * one shipped with the PP-OCRv4 recogniser); class 0 is the blank, see `classCharacters`.
 */
export const ctcDecodeHandler: NodeHandler = {
  name: NAME,
  inputs: ['probabilities'],
  outputs: {
    lines: { list: true, description: 'text of each line, in order' },
    scores: { list: true, description: 'mean probability of the characters kept for each line' },
    text: { description: 'the lines joined with newlines' },
  },
  async run(inputs, context) {
    const characters = await loadCharacterList(stringOption(NAME, context.config, 'characters') ?? ocrModelFiles().characters);
    const lines: string[] = [];
    const scores: number[] = [];
    for (const value of tensorsOf(inputs.probabilities)) {
      const tensor = readNumericTensor(NAME, 'probabilities', value, 3, ['FP32', 'FP16']);
      const [rows = 0, steps = 0, classCount = 0] = tensor.shape;
      const table = classCharacters(characters, classCount, NAME);
      const values = valuesOf(tensor.data as ArrayLike<number>, tensor.datatype);
      for (let row = 0; row < rows; row++) {
        const path = greedyCtc(values, row * steps * classCount, steps, classCount);
        lines.push(path.classes.map((c) => table[c]).join(''));
        scores.push(path.score);
      }
    }
    return { lines, scores, text: lines.join('\n') };
  },
};
