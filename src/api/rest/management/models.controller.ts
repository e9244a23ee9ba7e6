import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../../sdk/logging/logger.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { ModelAdministration } from '../../../serving/core-interfaces/model-administration.js';
import { traceHeaders } from '../../../telemetry/tracing/w3c-propagator.js';
import { describeModel, listModels, type ModelList, type NotLoadedVersionView } from '../../models/model-listing.js';
import type { ModelVersionView } from '../../models/model-describe.js';
import { REGISTRATION_LIMITS } from '../../models/registration-limits.js';
import {
  customizedParameter,
  ignoredList,
  ignoredSentence,
  numberGpuParameter,
  runtimeParameter,
  s3SseKmsParameter,
  scaleTimeoutParameter,
  sluiceHandlerFor,
  unregisterParameters,
  type IgnoredParameter,
} from '../../models/torchserve-parameters.js';
import { gpuCountOf } from '../../models/version-gpus.js';
import { requestTraceContext } from '../observation/request-observer.js';
import { QueryReader, type RawQuery } from './query-reader.js';

const REGISTER_PARAMS = [
  'url',
  'model_name',
  'batch_size',
  'max_batch_delay',
  'initial_workers',
  'synchronous',
  'response_timeout',
  'preferred_batch_sizes',
  'priority_levels',
  'default_priority',
  'queue_policy',
  'preserve_ordering',
  'job_queue_size',
  // TorchServe's own, mapped where Sluice has the concept and otherwise accepted and reported as ignored.
  'handler',
  'runtime',
  'startup_timeout',
  's3_sse_kms',
];
const SCALE_PARAMS = ['min_worker', 'max_worker', 'synchronous', 'timeout', 'number_gpu', 'model_version'];
const LIST_PARAMS = ['limit', 'next_page_token'];
const DESCRIBE_PARAMS = ['customized'];
const UNREGISTER_PARAMS = ['synchronous', 'timeout'];
/** TorchServe's clients send `limit=&next_page_token=`: an empty parameter is one not given. */
const LENIENT = { emptyIsAbsent: true } as const;
const { maxBatchSize, maxBatchDelayMs, maxResponseTimeoutS, maxWorkers: MAX_WORKERS } = REGISTRATION_LIMITS;

/** A version as `GET /models/{m}` describes it: loaded, or kept from the snapshot but not loaded. */
type ModelDescription = ModelVersionView | NotLoadedVersionView;

/** A `{status}` answer, as TorchServe gives for management changes. */
interface StatusAnswer {
  readonly status: string;
}

/** TorchServe-compatible model management. */
@Controller('models')
export class ModelsController {
  private readonly logger: Logger;

  constructor(@Inject(SERVING_CORE) private readonly core: ModelAdministration) {
    this.logger = core.logger.child({ api: 'management' });
  }

  /** Registers a model (all versions found at `url`). */
  @Post()
  @HttpCode(200)
  async register(@Query() query: RawQuery, @Req() http: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<StatusAnswer> {
    const q = new QueryReader(query, REGISTER_PARAMS, LENIENT);
    const url = q.requiredString('url');
    const responseTimeout = q.integer('response_timeout', 1, maxResponseTimeoutS);
    const startupTimeout = q.integer('startup_timeout', 1, maxResponseTimeoutS);
    const handler = q.string('handler');
    const runtime = q.string('runtime');
    const ignored = [runtime === undefined ? undefined : runtimeParameter(runtime), s3SseKmsParameter(q.boolean('s3_sse_kms'))].filter(isIgnored);
    const request = {
      url,
      name: q.string('model_name'),
      batchSize: q.integer('batch_size', 1, maxBatchSize),
      maxBatchDelayMs: q.decimal('max_batch_delay', 0, maxBatchDelayMs),
      minWorkers: q.integer('initial_workers', 0, MAX_WORKERS),
      responseTimeoutMs: responseTimeout === undefined ? undefined : responseTimeout * 1000,
      preferredBatchSizes: q.integerList('preferred_batch_sizes', 1, maxBatchSize),
      priorityLevels: q.integer('priority_levels', 1, 16),
      defaultPriority: q.integer('default_priority', 1, 16),
      queuePolicy: q.oneOf('queue_policy', ['reject', 'delay'] as const),
      preserveOrdering: q.boolean('preserve_ordering'),
      jobQueueSize: q.integer('job_queue_size', 1, 1_000_000),
      handler: handler === undefined ? undefined : sluiceHandlerFor(handler, this.core.manager.handlerNames()),
      loadTimeoutMs: startupTimeout === undefined ? undefined : startupTimeout * 1000,
      // A download continues the registration's trace at the model host.
      traceHeaders: traceHeaders(requestTraceContext(http)),
    };
    this.logIgnored('POST /models', ignored, { url });
    if (q.boolean('synchronous') === false) {
      this.core.manager.register(request).catch((error: unknown) => {
        this.logger.error('background registration failed', { url, error });
      });
      void reply.status(202);
      return { status: `Registration of "${url}" accepted; the model loads in the background (GET /models shows it when ready)${ignoredSentence(ignored)}` };
    }
    const versions = await this.core.manager.register(request);
    return {
      status:
        versions.map((v) => `Model "${v.name}" Version: ${v.version} registered with ${v.settings.minWorkers} initial workers`).join('; ') + ignoredSentence(ignored),
    };
  }

  /** Lists registered models, and those the snapshot holds that start-up could not load, paged. */
  @Get()
  list(@Query() query: RawQuery): ModelList {
    const q = new QueryReader(query, LIST_PARAMS, LENIENT);
    const limit = q.integer('limit', 1, 1000) ?? 100;
    const start = q.integer('next_page_token', 0) ?? 0;
    return listModels(this.core, start, limit);
  }

  /** Describes the default version. */
  @Get(':model')
  describe(@Param('model') model: string, @Query() query: RawQuery, @Res({ passthrough: true }) reply: FastifyReply): ModelDescription[] {
    this.readDescribeQuery(query, reply, model);
    return describeModel(this.core, model, undefined);
  }

  /** Describes a version, or all of them with `all`. */
  @Get(':model/:version')
  describeVersion(
    @Param('model') model: string,
    @Param('version') version: string,
    @Query() query: RawQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): ModelDescription[] {
    this.readDescribeQuery(query, reply, model);
    return describeModel(this.core, model, version);
  }

  /** Scales the default version (or `model_version`), answering 202 at once unless `synchronous=true`. */
  @Put(':model')
  async scale(@Param('model') model: string, @Query() query: RawQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<StatusAnswer> {
    return this.scaleVersion(model, undefined, query, reply);
  }

  /** Scales a version, answering 202 at once unless `synchronous=true`. */
  @Put(':model/:version')
  async scaleGiven(
    @Param('model') model: string,
    @Param('version') version: string,
    @Query() query: RawQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<StatusAnswer> {
    return this.scaleVersion(model, version, query, reply);
  }

  /** Makes a version the default. */
  @Put(':model/:version/set-default')
  @HttpCode(200)
  async setDefault(@Param('model') model: string, @Param('version') version: string, @Query() query: RawQuery): Promise<StatusAnswer> {
    QueryReader.refuseAll(query);
    await this.core.manager.setDefault(model, version);
    return { status: `Default version successfully updated for model "${model}" to "${version}"` };
  }

  /** Unregisters every version of a model. */
  @Delete(':model')
  async unregister(@Param('model') model: string, @Query() query: RawQuery): Promise<StatusAnswer> {
    const ignored = this.readUnregisterQuery(query, model);
    const removed = await this.core.manager.unregister(model);
    return { status: `Model "${model}" unregistered (versions ${removed.join(', ')})${ignoredSentence(ignored)}` };
  }

  /** Unregisters one version. */
  @Delete(':model/:version')
  async unregisterVersion(@Param('model') model: string, @Param('version') version: string, @Query() query: RawQuery): Promise<StatusAnswer> {
    const ignored = this.readUnregisterQuery(query, model);
    await this.core.manager.unregister(model, version);
    return { status: `Model "${model}" version ${version} unregistered${ignoredSentence(ignored)}` };
  }

  private readDescribeQuery(query: RawQuery, reply: FastifyReply, model: string): void {
    const ignored = [customizedParameter(new QueryReader(query, DESCRIBE_PARAMS, LENIENT).boolean('customized'))].filter(isIgnored);
    this.logIgnored('GET /models', ignored, { model });
    // The answer is the description list, which has no room for a note: the note goes in a header.
    if (ignored.length > 0) void reply.header('x-sluice-ignored-parameters', ignoredList(ignored));
  }

  private readUnregisterQuery(query: RawQuery, model: string): IgnoredParameter[] {
    const q = new QueryReader(query, UNREGISTER_PARAMS, LENIENT);
    const ignored = unregisterParameters(q.boolean('synchronous'), q.integer('timeout', -1));
    this.logIgnored('DELETE /models', ignored, { model });
    return ignored;
  }

  /**
   * Scales as TorchServe does: without `min_worker` and `max_worker`, to one worker (TorchServe's default
   * min_worker, and max_worker defaults to it); answers 202 once the new bounds are set, or with
   * `synchronous=true` 200 once the new workers are ready.
   */
  private async scaleVersion(model: string, pathVersion: string | undefined, query: RawQuery, reply: FastifyReply): Promise<StatusAnswer> {
    const q = new QueryReader(query, SCALE_PARAMS, LENIENT);
    const given = q.integer('min_worker', 0, MAX_WORKERS);
    // At least 1, as a manifest's workers.max: scaling to zero is min_worker=0, and a snapshot holding max 0 could not be restored.
    const max = q.integer('max_worker', 1, MAX_WORKERS);
    const synchronous = q.boolean('synchronous') === true;
    const timeout = q.integer('timeout', -1);
    const numberGpu = q.integer('number_gpu', 0, 1024);
    const version = pathVersion ?? q.string('model_version');
    const bounds = given === undefined && max === undefined ? { min: 1, max: 1 } : { min: given, max };
    const target = this.core.registry.resolve(model, version);
    const ignored = [scaleTimeoutParameter(timeout), numberGpuParameter(numberGpu, gpuCountOf(target), `model "${target.name}" version ${target.version}`)].filter(isIgnored);
    this.logIgnored('PUT /models', ignored, { model, version: target.version });
    const scaled = await this.core.manager.scale(model, version, bounds);
    const bound = `min_worker=${scaled.settings.minWorkers}, max_worker=${scaled.settings.maxWorkers}`;
    if (!synchronous) {
      void reply.status(202);
      return { status: `Processing worker updates...: model "${scaled.name}" version ${scaled.version} scales to ${bound}${ignoredSentence(ignored)}` };
    }
    await scaled.started();
    return { status: `Model "${scaled.name}" version ${scaled.version} now has ${bound}${ignoredSentence(ignored)}` };
  }

  private logIgnored(operation: string, ignored: readonly IgnoredParameter[], fields: Record<string, unknown>): void {
    if (ignored.length > 0) this.logger.warn('TorchServe parameters accepted and ignored', { operation, ...fields, ignored });
  }
}

function isIgnored(value: IgnoredParameter | undefined): value is IgnoredParameter {
  return value !== undefined;
}
