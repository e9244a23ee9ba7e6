/**
 * The Sluice SDK (`sluice/sdk`): everything a plugin may use, listed by name. Built-in plugins, third-party
 * plugins and the core's contract layer build against it; nothing here imports the rest of Sluice.
 */

// Plugins and what they register.
export { definePlugin, type ExtensionPoint, type NestDynamicModule, type PluginContext, type SluicePlugin } from './plugin/plugin.js';
export type { ModelDescription } from './model/model-description.js';
export type { Handler, HandlerContext, HandlerRequest, HandlerResult, PreparedRequest } from './handler/handler.js';
export { HandlerOptions, type NumberRule } from './handler/handler-options.js';
export { classProbabilities, rankOutputClasses, scoreRows, softmax, topClasses, type RankOptions, type RankedClass } from './handler/class-scores.js';
export type { NodeHandler, NodeHandlerContext, WorkflowValue } from './node-handler/node-handler.js';
export type { Envelope, EnvelopeContext, EnvelopeEntries, EnvelopeRequest, EnvelopeResponse } from './envelope/envelope.js';
export type { Endpoint, EndpointContext, EndpointRequest, EndpointResponse } from './endpoint/endpoint.js';
export type { AuthPrincipal, AuthProvider, AuthRequest, AuthScope, GuardedApi } from './auth/auth.js';
export { bearerToken } from './auth/bearer-token.js';
export { HOOK_NAMES, type HookEvents, type HookListener, type HookName, type InferHookEvent } from './hooks/hooks.js';

// Executors and the runtime they load models with.
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
export { concatBatchInputs, runBatchOnModel, splitBatchOutputs, type InputAllocator } from './executor/batch-tensors.js';
export type {
  ExecutionProviderName,
  ExecutionProviderSelection,
  GraphOptimizationLevel,
  IntraOpSpinning,
  LoadedModel,
  ModelRuntime,
  RejectedExecutionProvider,
  RuntimeSessionOptions,
} from './runtime/model-runtime.js';
export { providerReport, type ProviderReport } from './runtime/provider-report.js';

// Request and response bodies.
export { decodeJsonInstance, decodeJsonRequestBody, type BodyForm, type DecodedJsonBody } from './bodies/json-request-body.js';
export { encodeJsonOutputs, tensorRows } from './bodies/json-response-body.js';
export { jsonBodyText, parseJson } from './bodies/json-text.js';
export { charsetOf, refuseNonUtf8Charset } from './bodies/body-charset.js';
export { kserveInstances, kserveInstancesOfBody, type KServeInstances } from './bodies/kserve-instances.js';

// Tensors.
export {
  DATATYPES,
  NUMERIC_DATATYPE_INFO,
  isDatatype,
  isNumericDatatype,
  type Datatype,
  type NumericDatatype,
  type NumericTensorData,
  type SupportedDatatype,
  type TypedArrayByDatatype,
} from './tensor/datatype.js';
export { elementCount, type BytesTensorData, type Tensor, type TensorData, type TensorSpec } from './tensor/tensor.js';
export { float16BitsToNumber, float16OverflowIndex, float32ArrayToFloat16Bits, float32ToFloat16Bits } from './tensor/float16.js';
export { flattenJsonData, inferJsonShape, nestJsonValues, tensorFromJsonValues, tensorToJsonValues, type JsonScalar } from './tensor/json-tensor-codec.js';
export { tensorFromRawBytes, tensorToRawBytes } from './tensor/raw-tensor-codec.js';
export { toModelInputDatatypes, type HalfArrayAllocator } from './tensor/fp16-inputs.js';
export { MAX_SPELLED_OUT_VALUES, checkSpelledOutSize } from './tensor/encoded-values-limit.js';

// Errors, logging and files.
export { SluiceError, isSluiceError, type ErrorCode } from './errors/index.js';
export type { LogFields, Logger } from './logging/logger.js';
export { makeDirectories, type MakeDirectoriesOptions } from './files/make-directories.js';
export { makePrivateDirectory } from './files/private-directory.js';
export { writeFileAtomic, type WriteFileAtomicOptions } from './files/atomic-write.js';
export { promiseOf } from './promises/promise-of.js';
