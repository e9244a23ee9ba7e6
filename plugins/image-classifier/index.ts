import { definePlugin } from '../../src/sdk/index.js';
import { imageClassifierHandler } from './image-classifier-handler.js';

export { imageClassifierHandler } from './image-classifier-handler.js';
export { imageClassifierOptions, type ImageClassifierOptions, type ImageInput, type ResizeMode } from './image-classifier-options.js';

/** The `image-classifier` plugin: registers the `image-classifier` handler. */
export default definePlugin({
  register(context) {
    context.handler(imageClassifierHandler);
  },
});
