import * as tokenizers from '@huggingface/tokenizers';

/**
 * The part of `@huggingface/tokenizers`' `Tokenizer` the handler uses. The package's type declarations
 * use extensionless relative imports that NodeNext resolution cannot follow, so the class is typed here.
 */
export interface HfTokenizer {
  encode(text: string, options?: { readonly add_special_tokens?: boolean }): { readonly ids: number[] };
  token_to_id(token: string): number | undefined;
}

type HfTokenizerClass = new (tokenizerJson: object, tokenizerConfig: object) => HfTokenizer;

/** Builds a tokenizer from a parsed `tokenizer.json` and `tokenizer_config.json`; throws on a malformed one. */
export function createHfTokenizer(tokenizerJson: object, tokenizerConfig: object): HfTokenizer {
  const { Tokenizer } = tokenizers as unknown as { readonly Tokenizer: HfTokenizerClass };
  return new Tokenizer(tokenizerJson, tokenizerConfig);
}
