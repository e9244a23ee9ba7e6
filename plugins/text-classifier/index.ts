import { definePlugin } from '../../src/sdk/index.js';
import { textClassifierHandler } from './text-classifier-handler.js';

export { textClassifierHandler } from './text-classifier-handler.js';
export { textClassifierOptions, type TextClassifierOptions, type TokenInput, type TokenInputName } from './text-classifier-options.js';
export { loadTokenizer, type LoadedTokenizer } from './loaded-tokenizer.js';
export { truncatedIds, tokenTensors } from './token-tensors.js';

/** The `text-classifier` plugin: registers the `text-classifier` handler. */
export default definePlugin({
  register(context) {
    context.handler(textClassifierHandler);
  },
});
