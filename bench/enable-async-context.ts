/**
 * Preloaded (`--import`) into a server by `bench:tracing --split`: turns on an AsyncLocalStorage, as an
 * OpenTelemetry context manager would (Sluice passes trace context explicitly and installs none), without
 * any span work, to measure what async context tracking alone costs on this Node.js version.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

new AsyncLocalStorage<object>().enterWith({});
