export { HandlerPool } from './handler-pool.js';
export { defaultHandlerThreads, type HandlerPoolOptions } from './handler-pool-options.js';
export type { HandlerStage } from './handler-task.js';
export { BoundedHandlerContext } from './bounded-context.js';
