import { readFile } from 'node:fs/promises';
import { SluiceError, type ModelDescription } from '../../src/sdk/index.js';
import { createHfTokenizer, type HfTokenizer } from './hf-tokenizer.js';
import { locateModelFile, type ModelFile } from './model-file.js';
import { TEXT_CLASSIFIER, type TextClassifierOptions } from './text-classifier-options.js';

/** A tokenizer ready for the handler: how to encode, and what truncation and padding need to know. */
export interface LoadedTokenizer {
  /** The token ids of `text`, special tokens included. */
  encode(text: string): number[];
  /** How many special tokens the tokenizer puts before and after a text (`[CLS]` … `[SEP]`: 1 and 1). */
  readonly specialPrefix: number;
  readonly specialSuffix: number;
  /** The id padding uses: the tokenizer's own, or `[PAD]` / `<pad>`, or 0. */
  readonly padId: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readJson(file: ModelFile, model: ModelDescription, key: string): Promise<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file.path, 'utf8')) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_HANDLER_FAILED', `${TEXT_CLASSIFIER}: ${key} file of model \`${model.name}\` is not valid JSON (${reason})`, {
      handler: TEXT_CLASSIFIER,
      key,
    });
  }
  if (!isRecord(value)) {
    throw new SluiceError('SLUICE_HANDLER_FAILED', `${TEXT_CLASSIFIER}: ${key} file of model \`${model.name}\` is not a JSON object`, { handler: TEXT_CLASSIFIER, key });
  }
  return value;
}

/**
 * Where the text sits among the special tokens: a probe encoded with and without them shows how many
 * come before and after. Truncation cuts the text, never these.
 */
function specialTokenSpan(tokenizer: HfTokenizer): { prefix: number; suffix: number } {
  const full = tokenizer.encode('a').ids;
  const bare = tokenizer.encode('a', { add_special_tokens: false }).ids;
  for (let start = 0; bare.length > 0 && start + bare.length <= full.length; start++) {
    if (bare.every((id, i) => full[start + i] === id)) return { prefix: start, suffix: full.length - start - bare.length };
  }
  return { prefix: 0, suffix: 0 };
}

function padIdOf(json: Record<string, unknown>, tokenizer: HfTokenizer, override: number | undefined): number {
  if (override !== undefined) return override;
  const padding = json['padding'];
  if (isRecord(padding) && typeof padding['pad_id'] === 'number') return padding['pad_id'];
  return tokenizer.token_to_id('[PAD]') ?? tokenizer.token_to_id('<pad>') ?? 0;
}

async function load(model: ModelDescription, files: readonly [ModelFile, ModelFile | undefined], options: TextClassifierOptions): Promise<LoadedTokenizer> {
  const [tokenizerFile, configFile] = files;
  const json = await readJson(tokenizerFile, model, 'tokenizer');
  const config = configFile === undefined ? {} : await readJson(configFile, model, 'tokenizerConfig');
  let tokenizer: HfTokenizer;
  try {
    tokenizer = createHfTokenizer(json, config);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SluiceError('SLUICE_HANDLER_FAILED', `${TEXT_CLASSIFIER}: the tokenizer of model \`${model.name}\` cannot be built from its file (${reason})`, {
      handler: TEXT_CLASSIFIER,
      key: 'tokenizer',
    });
  }
  const { prefix, suffix } = specialTokenSpan(tokenizer);
  return {
    encode: (text) => tokenizer.encode(text).ids,
    specialPrefix: prefix,
    specialSuffix: suffix,
    padId: padIdOf(json, tokenizer, options.padTokenId),
  };
}

/** Tokenizers by file, with the stamps they were read at; one per file, replaced when the file changes. */
const loaded = new Map<string, { readonly stamp: string; readonly tokenizer: Promise<LoadedTokenizer> }>();

/**
 * The model's tokenizer, from `tokenizer` (and `tokenizerConfig`) in its directory. Read once per file
 * and thread, and again when a file changes; a failed read is not remembered, so a fixed file is picked
 * up by the next request.
 */
export async function loadTokenizer(model: ModelDescription, options: TextClassifierOptions): Promise<LoadedTokenizer> {
  const files = [
    await locateModelFile(model, 'tokenizer', options.tokenizer),
    options.tokenizerConfig === undefined ? undefined : await locateModelFile(model, 'tokenizerConfig', options.tokenizerConfig),
  ] as const;
  const key = files.map((f) => f?.path ?? '').join('\n') + `\n${String(options.padTokenId)}`;
  const stamp = files.map((f) => f?.stamp ?? '').join('\n');
  const cached = loaded.get(key);
  if (cached?.stamp === stamp) return cached.tokenizer;
  const tokenizer = load(model, files, options);
  loaded.set(key, { stamp, tokenizer });
  tokenizer.catch(() => {
    if (loaded.get(key)?.tokenizer === tokenizer) loaded.delete(key);
  });
  return tokenizer;
}
