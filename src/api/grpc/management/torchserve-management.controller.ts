import { Controller, Inject } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { SluiceError } from '../../../sdk/errors/index.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { ModelAdministration } from '../../../serving/core-interfaces/model-administration.js';
import { traceHeaders } from '../../../telemetry/tracing/w3c-propagator.js';
import { describeModel, listModels } from '../../models/model-listing.js';
import { REGISTRATION_LIMITS } from '../../models/registration-limits.js';
import {
  ignoredSentence,
  numberGpuParameter,
  runtimeParameter,
  s3SseKmsParameter,
  scaleTimeoutParameter,
  sluiceHandlerFor,
  type IgnoredParameter,
} from '../../models/torchserve-parameters.js';
import { gpuCountOf } from '../../models/version-gpus.js';
import type { Logger } from '../../../sdk/logging/logger.js';
import { callTraceContext } from '../calls/grpc-call-scope.js';

const SERVICE = 'ManagementAPIsService';
const { maxBatchSize, maxBatchDelayMs, maxResponseTimeoutS, maxWorkers: MAX_WORKERS } = REGISTRATION_LIMITS;

/** `ManagementResponse`: JSON for descriptions and lists, a status sentence for changes. */
interface ManagementResponse {
  readonly msg: string;
}

interface RegisterModelRequest {
  readonly url: string;
  readonly model_name: string;
  readonly batch_size: number;
  readonly max_batch_delay: number;
  readonly initial_workers: number;
  readonly response_timeout: number;
  readonly handler: string;
  readonly runtime: string;
  readonly synchronous: boolean;
  readonly s3_sse_kms: boolean;
  readonly startup_timeout: number;
}

interface ScaleWorkerRequest {
  readonly model_name: string;
  readonly model_version: string;
  readonly min_worker: number;
  readonly max_worker: number;
  readonly number_gpu: number;
  readonly synchronous: boolean;
  readonly timeout: number;
}

interface ModelRef {
  readonly model_name: string;
  readonly model_version: string;
}

/** Proto3 cannot tell 0 from "not set": a 0 is "not set", anything else must lie in [min, max]. */
function optionalInteger(value: number, field: string, min: number, max: number): number | undefined {
  if (value === 0) return undefined;
  if (value < min || value > max) throw new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', `${field} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function versionOf(request: ModelRef): string | undefined {
  return request.model_version === '' ? undefined : request.model_version;
}

function isIgnored(value: IgnoredParameter | undefined): value is IgnoredParameter {
  return value !== undefined;
}

/**
 * TorchServe-compatible gRPC management: `org.pytorch.serve.grpc.management.ManagementAPIsService`, over the
 * same model manager as the REST management API, taking the same TorchServe parameters: `handler` and
 * `startup_timeout` are mapped as over REST, and `runtime`, `s3_sse_kms`, a scale's `timeout` and a
 * `number_gpu` other than the version's are accepted and named as ignored in the answer and the log.
 * Registration always completes before the call answers (a call has one answer, so `synchronous` changes
 * nothing there); a scale answers once the bounds are set, or with `synchronous` once the workers are ready.
 */
@Controller()
export class TorchServeManagementController {
  private readonly logger: Logger;

  constructor(@Inject(SERVING_CORE) private readonly core: ModelAdministration) {
    this.logger = core.logger.child({ api: 'grpc-management' });
  }

  /** Registers every version found at `url` (a model-store name, or an http(s), s3:// or azure:// URL matching `allowedUrls`). */
  @GrpcMethod(SERVICE, 'RegisterModel')
  async registerModel(request: RegisterModelRequest, _metadata: unknown, call: object): Promise<ManagementResponse> {
    if (request.url === '') throw new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', 'url is required: a model-store name or an allowed http(s) URL');
    const responseTimeout = optionalInteger(request.response_timeout, 'response_timeout', 1, maxResponseTimeoutS);
    const startupTimeout = optionalInteger(request.startup_timeout, 'startup_timeout', 1, maxResponseTimeoutS);
    const ignored = [request.runtime === '' ? undefined : runtimeParameter(request.runtime), s3SseKmsParameter(request.s3_sse_kms)].filter(isIgnored);
    const overrides = {
      name: request.model_name === '' ? undefined : request.model_name,
      handler: request.handler === '' ? undefined : sluiceHandlerFor(request.handler, this.core.manager.handlerNames()),
      loadTimeoutMs: startupTimeout === undefined ? undefined : startupTimeout * 1000,
      batchSize: optionalInteger(request.batch_size, 'batch_size', 1, maxBatchSize),
      maxBatchDelayMs: optionalInteger(request.max_batch_delay, 'max_batch_delay', 1, maxBatchDelayMs),
      minWorkers: optionalInteger(request.initial_workers, 'initial_workers', 1, MAX_WORKERS),
      responseTimeoutMs: responseTimeout === undefined ? undefined : responseTimeout * 1000,
    };
    const versions = await this.core.manager.register({
      url: request.url,
      ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)),
      // A download continues the call's trace at the model host.
      traceHeaders: traceHeaders(callTraceContext(call)),
    });
    this.logIgnored('RegisterModel', ignored, { url: request.url });
    return {
      msg: versions.map((v) => `Model "${v.name}" Version: ${v.version} registered with ${v.settings.minWorkers} initial workers`).join('; ') + ignoredSentence(ignored),
    };
  }

  /** Scales a version (the default one when `model_version` is empty); `max_worker` 0 means `min_worker`. */
  @GrpcMethod(SERVICE, 'ScaleWorker')
  async scaleWorker(request: ScaleWorkerRequest): Promise<ManagementResponse> {
    const min = optionalInteger(request.min_worker, 'min_worker', 1, MAX_WORKERS) ?? 1;
    const max = optionalInteger(request.max_worker, 'max_worker', 1, MAX_WORKERS) ?? min;
    if (request.number_gpu < 0) throw new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', `number_gpu must be at least 0, got ${request.number_gpu}`);
    if (request.timeout < -1) throw new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', `timeout must be -1 or more, got ${request.timeout}`);
    const target = this.core.registry.resolve(request.model_name, versionOf(request));
    // Proto3 cannot tell 0 from "not set": number_gpu 0 and timeout 0 are read as not given.
    const ignored = [
      scaleTimeoutParameter(request.timeout === 0 ? undefined : request.timeout),
      numberGpuParameter(request.number_gpu === 0 ? undefined : request.number_gpu, gpuCountOf(target), `model "${target.name}" version ${target.version}`),
    ].filter(isIgnored);
    this.logIgnored('ScaleWorker', ignored, { model: request.model_name, version: target.version });
    const scaled = await this.core.manager.scale(request.model_name, versionOf(request), { min, max });
    if (request.synchronous) await scaled.started();
    return {
      msg: `Model "${scaled.name}" version ${scaled.version} now has min_worker=${scaled.settings.minWorkers}, max_worker=${scaled.settings.maxWorkers}${ignoredSentence(ignored)}`,
    };
  }

  /** The REST description as JSON: the default version, a given one, or every version with `all`. */
  @GrpcMethod(SERVICE, 'DescribeModel')
  describeModel(request: ModelRef): ManagementResponse {
    return { msg: JSON.stringify(describeModel(this.core, request.model_name, versionOf(request))) };
  }

  /** The REST list as JSON: `{models: [{modelName, modelUrl, status?}], nextPageToken?}`. */
  @GrpcMethod(SERVICE, 'ListModels')
  listModels(request: { limit: number; next_page_token: number }): ManagementResponse {
    const limit = optionalInteger(request.limit, 'limit', 1, 1000) ?? 100;
    if (request.next_page_token < 0) throw new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', `next_page_token must be at least 0, got ${request.next_page_token}`);
    return { msg: JSON.stringify(listModels(this.core, request.next_page_token, limit)) };
  }

  @GrpcMethod(SERVICE, 'SetDefault')
  async setDefault(request: ModelRef): Promise<ManagementResponse> {
    await this.core.manager.setDefault(request.model_name, request.model_version);
    return { msg: `Default version successfully updated for model "${request.model_name}" to "${request.model_version}"` };
  }

  /** Unregisters one version, or every version when `model_version` is empty. */
  @GrpcMethod(SERVICE, 'UnregisterModel')
  async unregisterModel(request: ModelRef): Promise<ManagementResponse> {
    const version = versionOf(request);
    const removed = await this.core.manager.unregister(request.model_name, version);
    return { msg: `Model "${request.model_name}" unregistered (versions ${removed.join(', ')})` };
  }

  private logIgnored(operation: string, ignored: readonly IgnoredParameter[], fields: Record<string, unknown>): void {
    if (ignored.length > 0) this.logger.warn('TorchServe parameters accepted and ignored', { operation, ...fields, ignored });
  }
}
