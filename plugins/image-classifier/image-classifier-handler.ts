import {
  classProbabilities,
  rankOutputClasses,
  type Handler,
  type HandlerContext,
  type HandlerRequest,
  type HandlerResult,
  type PreparedRequest,
} from '../../src/sdk/index.js';
import { imageBytesOf } from './image-body.js';
import { IMAGE_CLASSIFIER, imageClassifierOptions } from './image-classifier-options.js';
import { imageTensor } from './image-tensor.js';

/**
 * Image classification, TorchServe's `image_classifier`: image bytes in, the top classes out as
 * `{label: probability}`. sharp decodes and resizes the image (centre crop by default), pixels are
 * normalised with the model's mean and deviation into its input layout, and the scores go through
 * softmax and the labels file. Settings come from the model's `handlerOptions` (docs/handlers.md).
 *
 * Not `cpuHeavy`: sharp decodes and resizes on libuv's thread pool, off the event loop, and what is left
 * here (normalising the resized pixels, softmax) is bounded by the model's input size, not by the upload.
 * A worker thread would add a copy of every upload for no gain.
 */
export const imageClassifierHandler: Handler = {
  name: IMAGE_CLASSIFIER,
  async preprocess(requests: readonly HandlerRequest[], context: HandlerContext): Promise<readonly PreparedRequest[]> {
    const options = imageClassifierOptions(context);
    return Promise.all(requests.map(async (request) => ({ inputs: [await imageTensor(imageBytesOf(request), options)] })));
  },
  async postprocess(results: readonly HandlerResult[], context: HandlerContext): Promise<readonly unknown[]> {
    const options = imageClassifierOptions(context);
    const answers = results.map(({ outputs }) => {
      const ranked = rankOutputClasses(outputs, context.model, options, IMAGE_CLASSIFIER);
      return options.responseFormat === 'map' ? classProbabilities(ranked) : ranked;
    });
    return Promise.resolve(answers);
  },
};
