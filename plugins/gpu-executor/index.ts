import { definePlugin } from '../../src/sdk/index.js';
import { GpuExecutor } from './gpu-executor.js';

/** The GPU batching executor plugin: register {@link GpuExecutor} under its name, `gpu`. */
export { GpuExecutor } from './gpu-executor.js';
export { GpuExecutorModel } from './gpu-executor-model.js';
export {
  DEFAULT_GPU_EXECUTION_PROVIDERS,
  DEFAULT_GPU_EXECUTOR_OPTIONS,
  parseGpuExecutorOptions,
  resolveGpuExecutorOptions,
  type GpuExecutorOptions,
  type ResolvedGpuExecutorOptions,
} from './options.js';
export { acceptsDatatype } from './fp16-conversion.js';
export {
  GPU_DEFAULT_MAX_BATCH_DELAY_MS,
  GPU_DEFAULT_MAX_BATCH_SIZE,
  gpuBatchingDefaults,
  type DeclaredBatching,
  type GpuBatching,
} from './batching-defaults.js';
export { deviceForInstance, executionDevices, resolveGpuIds, type ExecutionDevice } from './device-assignment.js';

/** The plugin object: registers the `gpu` executor. */
export default definePlugin({
  register(context) {
    context.executor(new GpuExecutor());
  },
});
