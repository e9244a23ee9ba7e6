import { OnnxGraphBuilder } from './onnx/onnx-graph-builder.js';

/** Classes of the sentiment model, in output order. */
export const SENTIMENT_LABELS: readonly string[] = ['negative', 'positive'];

/** Tokens per sequence the sentiment model takes: `input_ids` and `attention_mask` are `[N, 16]`. */
export const SENTIMENT_SEQUENCE_LENGTH = 16;

/** The special tokens, with the ids BERT-style vocabularies give them. */
const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]'] as const;

const POSITIVE_WORDS = ['good', 'great', 'love', 'excellent'];
const NEGATIVE_WORDS = ['bad', 'awful', 'hate', 'terrible'];
const NEUTRAL_WORDS = ['the', 'a', 'movie', 'film', 'was', 'is', 'and', 'very', 'not', '.', ','];
/** Word-piece continuations, so that `goodness` is `good ##ness`. */
const SUFFIXES = ['##ness', '##s', '##ly'];

/** The vocabulary in id order: special tokens, then positive, negative and neutral words, then suffixes. */
export const SENTIMENT_VOCAB: readonly string[] = [...SPECIAL_TOKENS, ...POSITIVE_WORDS, ...NEGATIVE_WORDS, ...NEUTRAL_WORDS, ...SUFFIXES];

/**
 * Each token's (negative, positive) weight. `[PAD]` weighs heavily towards negative so that a model
 * given padding without its attention mask answers wrongly: the mask is what makes the answer right.
 */
function tokenWeights(token: string): readonly [number, number] {
  if (token === '[PAD]') return [4, 0];
  if (POSITIVE_WORDS.includes(token)) return [0, 2];
  if (NEGATIVE_WORDS.includes(token)) return [2, 0];
  return [0, 0];
}

/**
 * A bag-of-words sentiment model with hand-set weights: inputs `input_ids` and `attention_mask`, INT64
 * `[N, 16]` → `Gather` of each token's (negative, positive) weights, multiplied by the mask, summed over
 * the sequence → output `logits` FP32 `[N, 2]`. "good great" scores (0, 4): positive; "bad awful" (4, 0).
 */
export function buildSentimentModel(): Uint8Array {
  const weights = new Float32Array(SENTIMENT_VOCAB.flatMap((token) => [...tokenWeights(token)]));
  return new OnnxGraphBuilder('sentiment', { docString: 'Sluice test model: sentiment as a masked bag of word weights.' })
    .input('input_ids', 'INT64', [-1, SENTIMENT_SEQUENCE_LENGTH])
    .input('attention_mask', 'INT64', [-1, SENTIMENT_SEQUENCE_LENGTH])
    .initializer('word_weights', 'FP32', [SENTIMENT_VOCAB.length, 2], weights)
    .node('Gather', ['word_weights', 'input_ids'], ['token_scores'], { axis: 0 })
    .node('Cast', ['attention_mask'], ['mask'], { to: 1 })
    .initializer('last_axis', 'INT64', [1], new BigInt64Array([2n]))
    .node('Unsqueeze', ['mask', 'last_axis'], ['mask3'])
    .node('Mul', ['token_scores', 'mask3'], ['kept_scores'])
    .initializer('sequence_axis', 'INT64', [1], new BigInt64Array([1n]))
    .node('ReduceSum', ['kept_scores', 'sequence_axis'], ['logits'], { keepdims: 0 })
    .output('logits', 'FP32', [-1, 2])
    .encode();
}

function specialToken(token: string, id: number): Record<string, unknown> {
  return { id, content: token, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}

/**
 * The sentiment model's tokenizer in the Hugging Face `tokenizer.json` format: BERT normaliser
 * (lower-case) and pre-tokeniser, WordPiece over {@link SENTIMENT_VOCAB}, `[CLS] … [SEP]` around each
 * text, `[PAD]` (id 0) as padding.
 */
export function buildSentimentTokenizer(): string {
  const cls = SENTIMENT_VOCAB.indexOf('[CLS]');
  const sep = SENTIMENT_VOCAB.indexOf('[SEP]');
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: { strategy: { Fixed: SENTIMENT_SEQUENCE_LENGTH }, direction: 'Right', pad_to_multiple_of: null, pad_id: 0, pad_type_id: 0, pad_token: '[PAD]' },
    added_tokens: SPECIAL_TOKENS.map((token) => specialToken(token, SENTIMENT_VOCAB.indexOf(token))),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [cls], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [sep], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(SENTIMENT_VOCAB.map((token, id) => [token, id])),
    },
  };
  return JSON.stringify(tokenizer, null, 2) + '\n';
}
