/**
 * Preloaded (`--import`) into a server by `bench:tracing --split`: turns on an AsyncLocalStorage, as
 * tracing does for context propagation, without any span work, to measure what async context tracking
 * alone costs on this Node.js version.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

new AsyncLocalStorage<object>().enterWith({});
