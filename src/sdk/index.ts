export type { ModelDescription } from './model/model-description.js';
export type { NodeHandler, NodeHandlerContext, WorkflowValue } from './node-handler/node-handler.js';
export type { Handler, HandlerContext, HandlerRequest, HandlerResult, PreparedRequest } from './handler/handler.js';
export { decodeJsonInstance, decodeJsonRequestBody, type BodyForm, type DecodedJsonBody } from './bodies/json-request-body.js';
export { kserveInstances, kserveInstancesOfBody, type KServeInstances } from './bodies/kserve-instances.js';
export { charsetOf, refuseNonUtf8Charset } from './bodies/body-charset.js';
export { jsonBodyText, parseJson } from './bodies/json-text.js';
export { encodeJsonOutputs, tensorRows } from './bodies/json-response-body.js';
export { classProbabilities, rankOutputClasses, scoreRows, softmax, topClasses, type RankOptions, type RankedClass } from './handler/class-scores.js';
export { HandlerOptions, type NumberRule } from './handler/handler-options.js';
export type {
  Batch,
  BatchingDefaults,
  BatchItem,
  DeclaredBatching,
  ExecutionInstance,
  Executor,
  ExecutorLoadContext,
  ExecutorModel,
  JobResult,
} from './executor/executor.js';
export type {
  ExecutionProviderName,
  ExecutionProviderSelection,
  GraphOptimizationLevel,
  LoadedModel,
  ModelRuntime,
  RejectedExecutionProvider,
  RuntimeSessionOptions,
} from './runtime/model-runtime.js';
export { concatBatchInputs, splitBatchOutputs, runBatchOnModel, type InputAllocator } from './executor/batch-tensors.js';
export { providerReport, type ProviderReport } from './runtime/provider-report.js';
export { SluiceError, isSluiceError, type ErrorCode } from './errors/index.js';
export type { Logger, LogFields } from './logging/logger.js';
export { makeDirectories, type MakeDirectoriesOptions } from './files/make-directories.js';
export * from './tensor/index.js';
export type { AuthPrincipal, AuthProvider, AuthRequest, AuthScope, GuardedApi } from './auth/auth.js';
export { bearerToken } from './auth/bearer-token.js';
export type { Endpoint, EndpointContext, EndpointRequest, EndpointResponse } from './endpoint/endpoint.js';
export type { Envelope, EnvelopeContext, EnvelopeEntries, EnvelopeRequest, EnvelopeResponse } from './envelope/envelope.js';
export { HOOK_NAMES, type HookEvents, type HookListener, type HookName, type InferHookEvent } from './hooks/hooks.js';
export { definePlugin, type ExtensionPoint, type NestDynamicModule, type PluginContext, type SluicePlugin } from './plugin/plugin.js';
