import type { Tensor } from '../../src/sdk/index.js';
import type { LoadedTokenizer } from './loaded-tokenizer.js';
import type { TextClassifierOptions, TokenInput } from './text-classifier-options.js';

/**
 * Token ids cut to `maxLength` by dropping text tokens from the end, keeping the special tokens around
 * the text (`[CLS] … [SEP]`), as Hugging Face's right-side truncation does.
 */
export function truncatedIds(ids: readonly number[], tokenizer: LoadedTokenizer, maxLength: number): readonly number[] {
  if (ids.length <= maxLength) return ids;
  const prefix = Math.min(tokenizer.specialPrefix, maxLength);
  const suffix = Math.min(tokenizer.specialSuffix, maxLength - prefix);
  const textRoom = maxLength - prefix - suffix;
  return [...ids.slice(0, prefix + textRoom), ...ids.slice(ids.length - suffix)];
}

function tensor(input: TokenInput, values: readonly number[]): Tensor {
  const shape = [1, values.length];
  if (input.datatype === 'INT32') return { name: input.name, datatype: 'INT32', shape, data: Int32Array.from(values) };
  return { name: input.name, datatype: 'INT64', shape, data: BigInt64Array.from(values, (v) => BigInt(v)) };
}

/**
 * The model inputs for one text: `input_ids` truncated and (with `padding: max-length`) padded to
 * `maxLength`, `attention_mask` 1 for tokens and 0 for padding, `token_type_ids` all 0 (one sequence),
 * each `[1, length]` in the datatype the model declares; only the inputs the model has.
 */
export function tokenTensors(text: string, tokenizer: LoadedTokenizer, options: TextClassifierOptions): Tensor[] {
  const ids = truncatedIds(tokenizer.encode(text), tokenizer, options.maxLength);
  const length = options.padding === 'max-length' ? options.maxLength : ids.length;
  const padded = Array.from({ length }, (_, i) => ids[i] ?? tokenizer.padId);
  const mask = Array.from({ length }, (_, i) => (i < ids.length ? 1 : 0));
  const types = new Array<number>(length).fill(0);
  const values = { input_ids: padded, attention_mask: mask, token_type_ids: types };
  return options.inputs.map((input) => tensor(input, values[input.name]));
}
