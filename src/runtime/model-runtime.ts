/** The runtime contract lives in the plugin SDK so that executors and runtimes from plugins share it. */
export type {
  ExecutionProviderName,
  ExecutionProviderSelection,
  GraphOptimizationLevel,
  IntraOpSpinning,
  LoadedModel,
  ModelRuntime,
  RejectedExecutionProvider,
  RuntimeSessionOptions,
} from '../sdk/runtime/model-runtime.js';
