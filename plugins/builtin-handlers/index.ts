import { definePlugin, type Handler } from '../../src/sdk/index.js';
import { classifierHandler } from './classifier-handler.js';
import { passthroughHandler } from './passthrough-handler.js';

export { classifierHandler, type Classification } from './classifier-handler.js';
export { passthroughHandler } from './passthrough-handler.js';

/** The handlers every Sluice server has. */
export const builtinHandlers: readonly Handler[] = [passthroughHandler, classifierHandler];

/** The plugin object: registers the `passthrough` and `classifier` handlers. */
export default definePlugin({
  register(context) {
    for (const handler of builtinHandlers) context.handler(handler);
  },
});
