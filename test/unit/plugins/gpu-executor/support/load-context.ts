import type { ExecutorLoadContext, ModelRuntime } from '../../../../../src/sdk/index.js';
import { RecordingLogger } from '../../../../support/recording-logger.js';

/** A load context for `modelPath` on the CPU provider only, batches of up to 4, with a recording logger; `overrides` replace fields. */
export function loadContext(
  modelPath: string,
  runtime: ModelRuntime,
  overrides: Partial<Omit<ExecutorLoadContext, 'logger'>> = {},
): ExecutorLoadContext & { readonly logger: RecordingLogger } {
  return {
    modelPath,
    runtime,
    sessionOptions: { intraOpNumThreads: 1, executionProviders: ['cpu'] },
    device: 'cpu',
    maxBatchSize: 4,
    logger: new RecordingLogger(),
    ...overrides,
  };
}
