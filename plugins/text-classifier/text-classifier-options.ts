import { HandlerOptions, SluiceError, type HandlerContext, type TensorSpec } from '../../src/sdk/index.js';

/** The handler's registered name. */
export const TEXT_CLASSIFIER = 'text-classifier';

/** The model inputs the handler fills, by their usual (Hugging Face) names. */
export const TOKEN_INPUTS = ['input_ids', 'attention_mask', 'token_type_ids'] as const;

/** One of {@link TOKEN_INPUTS}. */
export type TokenInputName = (typeof TOKEN_INPUTS)[number];

/** A model input the handler writes, with the integer type the model declares. */
export interface TokenInput {
  readonly name: TokenInputName;
  readonly datatype: 'INT64' | 'INT32';
}

/** Every setting of the handler for one model, defaults applied. */
export interface TextClassifierOptions {
  /** The tokenizer file, relative to the model's directory. */
  readonly tokenizer: string;
  /** An optional `tokenizer_config.json`, relative to the model's directory. */
  readonly tokenizerConfig?: string;
  /** The model inputs to fill, in the model's order. */
  readonly inputs: readonly TokenInput[];
  /** Sequences are truncated to this many tokens, special tokens included. */
  readonly maxLength: number;
  /** `max-length` pads every sequence to {@link maxLength} (so requests batch together); `longest` does not pad. */
  readonly padding: 'max-length' | 'longest';
  /** Overrides the tokenizer's padding id. */
  readonly padTokenId?: number;
  readonly output?: string;
  readonly softmax: boolean;
  /** How many classes to answer; all of them when unset. */
  readonly topK?: number;
  readonly responseFormat: 'map' | 'list';
}

const KNOWN = ['tokenizer', 'tokenizerConfig', 'maxLength', 'padding', 'padTokenId', 'output', 'softmax', 'topK', 'responseFormat'];

/** BERT's limit, for models whose sequence dimension is open. */
export const DEFAULT_MAX_LENGTH = 512;

function failure(context: HandlerContext, message: string): SluiceError {
  return new SluiceError('SLUICE_HANDLER_FAILED', `${TEXT_CLASSIFIER}: model \`${context.model.name}\` ${message}`, { handler: TEXT_CLASSIFIER });
}

function tokenInput(spec: TensorSpec, context: HandlerContext): TokenInput {
  if (!(TOKEN_INPUTS as readonly string[]).includes(spec.name)) {
    throw failure(context, `has input \`${spec.name}\`; this handler fills ${TOKEN_INPUTS.join(', ')}`);
  }
  if (spec.datatype !== 'INT64' && spec.datatype !== 'INT32') {
    throw failure(context, `declares input \`${spec.name}\` as ${spec.datatype}; this handler writes INT64 or INT32 token inputs`);
  }
  const [batch] = spec.shape;
  if (spec.shape.length !== 2 || (batch !== -1 && batch !== 1)) {
    throw failure(context, `declares input \`${spec.name}\` with shape [${spec.shape.join(', ')}]; token inputs are [N, sequence length], N variable or 1`);
  }
  return { name: spec.name as TokenInputName, datatype: spec.datatype };
}

/** The sequence length the model fixes (the same for every token input), if any. */
function fixedLength(context: HandlerContext): number | undefined {
  const fixed = [...new Set(context.model.inputs.map((s) => s.shape[1] ?? -1).filter((d) => d > 0))];
  if (fixed.length > 1) throw failure(context, `fixes different sequence lengths on its inputs (${fixed.join(', ')})`);
  return fixed[0];
}

/**
 * The handler's settings for the model in `context`: its `handlerOptions` with defaults applied, and the
 * token inputs read from the model's input specs (`input_ids` is required). Wrong settings or a model
 * the handler cannot feed throw `SLUICE_HANDLER_FAILED`, as they need a fix in the model, not the request.
 */
export function textClassifierOptions(context: HandlerContext): TextClassifierOptions {
  const options = new HandlerOptions(TEXT_CLASSIFIER, context.model.name, context.config);
  options.onlyKnown(KNOWN);
  const inputs = context.model.inputs.map((spec) => tokenInput(spec, context));
  if (!inputs.some((input) => input.name === 'input_ids')) throw failure(context, 'has no input `input_ids` for the token ids');
  const fixed = fixedLength(context);
  const maxLength = options.number('maxLength', fixed ?? DEFAULT_MAX_LENGTH, { min: 1, integer: true });
  if (fixed !== undefined && maxLength !== fixed) throw options.invalid('maxLength', `left out or equal to the model's fixed sequence length of ${fixed}`);
  const padding = options.oneOf('padding', ['max-length', 'longest'] as const, 'max-length');
  if (fixed !== undefined && padding !== 'max-length') throw options.invalid('padding', `max-length, as the model fixes the sequence length at ${fixed}`);
  const tokenizerConfig = options.string('tokenizerConfig');
  const output = options.string('output');
  if (output !== undefined && !context.model.outputs.some((s) => s.name === output)) {
    throw options.invalid('output', `one of the model's outputs (${context.model.outputs.map((s) => s.name).join(', ')})`);
  }
  const padTokenId = options.has('padTokenId') ? options.number('padTokenId', 0, { min: 0, integer: true }) : undefined;
  const topK = options.has('topK') ? options.number('topK', 1, { min: 1, integer: true }) : undefined;
  return {
    tokenizer: options.string('tokenizer') ?? 'tokenizer.json',
    ...(tokenizerConfig !== undefined ? { tokenizerConfig } : {}),
    inputs,
    maxLength,
    padding,
    ...(padTokenId !== undefined ? { padTokenId } : {}),
    ...(output !== undefined ? { output } : {}),
    softmax: options.boolean('softmax', true),
    ...(topK !== undefined ? { topK } : {}),
    responseFormat: options.oneOf('responseFormat', ['map', 'list'] as const, 'map'),
  };
}
