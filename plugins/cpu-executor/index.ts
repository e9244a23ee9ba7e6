import { definePlugin } from '../../src/sdk/index.js';
import { CpuExecutor } from './cpu-executor.js';

export { CpuExecutor } from './cpu-executor.js';

/** The default executor, `cpu`: every instance of a version shares one ONNX Runtime session. */
export default definePlugin({
  register(context) {
    context.executor(new CpuExecutor());
  },
});
