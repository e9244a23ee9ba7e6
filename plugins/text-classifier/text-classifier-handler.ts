import {
  classProbabilities,
  rankOutputClasses,
  type Handler,
  type HandlerContext,
  type HandlerRequest,
  type HandlerResult,
  type PreparedRequest,
} from '../../src/sdk/index.js';
import { loadTokenizer } from './loaded-tokenizer.js';
import { textOf } from './text-body.js';
import { TEXT_CLASSIFIER, textClassifierOptions } from './text-classifier-options.js';
import { tokenTensors } from './token-tensors.js';

/**
 * Text classification, TorchServe's `text_classifier`: text in, `{label: probability}` out. The text is
 * tokenised by the model's own `tokenizer.json` (Hugging Face format), truncated and padded to the
 * model's sequence length into `input_ids`, `attention_mask` and `token_type_ids` (those the model has),
 * and the scores go through softmax and the labels file. Settings come from the model's
 * `handlerOptions` (docs/handlers.md).
 *
 * `cpuHeavy`: tokenising is synchronous JavaScript whose time grows with the text, and a client decides
 * the text's length (up to the request size limit, megabytes). On the event loop a long text would hold
 * up every other request; on a handler thread it only holds that thread.
 */
export const textClassifierHandler: Handler = {
  name: TEXT_CLASSIFIER,
  cpuHeavy: { module: import.meta.url, exportName: 'textClassifierHandler' },
  async preprocess(requests: readonly HandlerRequest[], context: HandlerContext): Promise<readonly PreparedRequest[]> {
    const options = textClassifierOptions(context);
    const texts = requests.map(textOf);
    const tokenizer = await loadTokenizer(context.model, options);
    return texts.map((text) => ({ inputs: tokenTensors(text, tokenizer, options) }));
  },
  async postprocess(results: readonly HandlerResult[], context: HandlerContext): Promise<readonly unknown[]> {
    const options = textClassifierOptions(context);
    const rank = { ...options, topK: options.topK ?? Number.POSITIVE_INFINITY };
    const answers = results.map(({ outputs }) => {
      const ranked = rankOutputClasses(outputs, context.model, rank, TEXT_CLASSIFIER);
      return options.responseFormat === 'map' ? classProbabilities(ranked) : ranked;
    });
    return Promise.resolve(answers);
  },
};
