import { csvEnvelope } from './csv-envelope.js';
import { flowerHandler } from './flower-handler.js';
import { InferenceCounter } from './stats-endpoint.js';

export { csvEnvelope } from './csv-envelope.js';
export { flowerHandler, BadFlower } from './flower-handler.js';
export { InferenceCounter } from './stats-endpoint.js';

/**
 * The plugin object Sluice imports. Everything registered here is declared under `sluice.provides` in
 * package.json, and Sluice checks both ways.
 */
export default {
  register(context) {
    const counter = new InferenceCounter();
    context.handler(flowerHandler);
    context.envelope(csvEnvelope);
    context.endpoint(counter.endpoint());
    context.hook('postInfer', (event) => counter.record(event));
    context.logger.info('starter plugin ready', { greeting: context.config.greeting });
  },
};
