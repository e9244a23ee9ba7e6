export type { ModelDescription } from './model-description.js';
export type { NodeHandler, NodeHandlerContext, WorkflowValue } from './node-handler.js';
export type { Handler, HandlerContext, HandlerRequest, HandlerResult, PreparedRequest } from './handler.js';
export { decodeJsonInstance, decodeJsonRequestBody, type BodyForm, type DecodedJsonBody } from './json-request-body.js';
export { kserveInstances, kserveInstancesOfBody, type KServeInstances } from './kserve-instances.js';
export { charsetOf, refuseNonUtf8Charset } from './body-charset.js';
export { jsonBodyText, parseJson } from './json-text.js';
export { encodeJsonOutputs, tensorRows } from './json-response-body.js';
export { classProbabilities, rankOutputClasses, scoreRows, softmax, topClasses, type RankOptions, type RankedClass } from './class-scores.js';
export { HandlerOptions, type NumberRule } from './handler-options.js';
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
} from './executor.js';
export type {
  ExecutionProviderName,
  ExecutionProviderSelection,
  GraphOptimizationLevel,
  LoadedModel,
  ModelRuntime,
  RejectedExecutionProvider,
  RuntimeSessionOptions,
} from './model-runtime.js';
export { concatBatchInputs, splitBatchOutputs, runBatchOnModel, type InputAllocator } from './batch-tensors.js';
export { providerReport, type ProviderReport } from './provider-report.js';
export { SluiceError, isSluiceError, type ErrorCode } from '../../common/errors/index.js';
export type { Logger, LogFields } from '../../common/logger.js';
export { makeDirectories, type MakeDirectoriesOptions } from '../../common/make-directories.js';
export * from '../../common/tensor/index.js';
export type { AuthPrincipal, AuthProvider, AuthRequest, AuthScope, GuardedApi } from './auth.js';
export { bearerToken } from './bearer-token.js';
export type { Endpoint, EndpointContext, EndpointRequest, EndpointResponse } from './endpoint.js';
export type { Envelope, EnvelopeContext, EnvelopeEntries, EnvelopeRequest, EnvelopeResponse } from './envelope.js';
export { HOOK_NAMES, type HookEvents, type HookListener, type HookName, type InferHookEvent } from './hooks.js';
export { definePlugin, type ExtensionPoint, type NestDynamicModule, type PluginContext, type SluicePlugin } from './plugin.js';
