export { OnnxRuntime } from './onnx-runtime.js';
export { OnnxLoadedModel } from './onnx-loaded-model.js';
export { ThreadedLoadedModel } from './threaded-loaded-model.js';
export { type ExecutionProviderSelection, type RejectedExecutionProvider } from './execution-provider.js';
export { DEFAULT_SESSION_OPTIONS } from './session-options.js';
