import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SluiceError } from '../../../sdk/errors/index.js';
import type { Logger } from '../../../sdk/logging/logger.js';
import { SERVING_CORE } from '../../../serving/core-interfaces/serving-core-token.js';
import type { ModelAdministration } from '../../../serving/core-interfaces/model-administration.js';
import { traceHeaders } from '../../../telemetry/tracing/w3c-propagator.js';
import { describeModel, listModels, type ModelList, type NotLoadedVersionView } from '../../models/model-listing.js';
import type { ModelVersionView } from '../../models/model-describe.js';
import { REGISTRATION_LIMITS } from '../../models/registration-limits.js';
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
];
const SCALE_PARAMS = ['min_worker', 'max_worker', 'synchronous', 'timeout'];
const LIST_PARAMS = ['limit', 'next_page_token'];
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
    const q = new QueryReader(query, REGISTER_PARAMS);
    const url = q.requiredString('url');
    const responseTimeout = q.integer('response_timeout', 1, maxResponseTimeoutS);
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
      // A download continues the registration's trace at the model host.
      traceHeaders: traceHeaders(requestTraceContext(http)),
    };
    if (q.boolean('synchronous') === false) {
      this.core.manager.register(request).catch((error: unknown) => {
        this.logger.error('background registration failed', { url, error });
      });
      void reply.status(202);
      return { status: `Registration of "${url}" accepted; the model loads in the background (GET /models shows it when ready)` };
    }
    const versions = await this.core.manager.register(request);
    return {
      status: versions
        .map((v) => `Model "${v.name}" Version: ${v.version} registered with ${v.settings.minWorkers} initial workers`)
        .join('; '),
    };
  }

  /** Lists registered models, and those the snapshot holds that start-up could not load, paged. */
  @Get()
  list(@Query() query: RawQuery): ModelList {
    const q = new QueryReader(query, LIST_PARAMS);
    const limit = q.integer('limit', 1, 1000) ?? 100;
    const start = q.integer('next_page_token', 0) ?? 0;
    return listModels(this.core, start, limit);
  }

  /** Describes the default version. */
  @Get(':model')
  describe(@Param('model') model: string, @Query() query: RawQuery): ModelDescription[] {
    QueryReader.refuseAll(query);
    return describeModel(this.core, model, undefined);
  }

  /** Describes a version, or all of them with `all`. */
  @Get(':model/:version')
  describeVersion(@Param('model') model: string, @Param('version') version: string, @Query() query: RawQuery): ModelDescription[] {
    QueryReader.refuseAll(query);
    return describeModel(this.core, model, version);
  }

  /** Scales the default version. */
  @Put(':model')
  async scale(@Param('model') model: string, @Query() query: RawQuery): Promise<StatusAnswer> {
    return this.scaleVersion(model, undefined, query);
  }

  /** Scales a version. */
  @Put(':model/:version')
  async scaleGiven(@Param('model') model: string, @Param('version') version: string, @Query() query: RawQuery): Promise<StatusAnswer> {
    return this.scaleVersion(model, version, query);
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
    QueryReader.refuseAll(query);
    const removed = await this.core.manager.unregister(model);
    return { status: `Model "${model}" unregistered (versions ${removed.join(', ')})` };
  }

  /** Unregisters one version. */
  @Delete(':model/:version')
  async unregisterVersion(@Param('model') model: string, @Param('version') version: string, @Query() query: RawQuery): Promise<StatusAnswer> {
    QueryReader.refuseAll(query);
    await this.core.manager.unregister(model, version);
    return { status: `Model "${model}" version ${version} unregistered` };
  }

  private async scaleVersion(model: string, version: string | undefined, query: RawQuery): Promise<StatusAnswer> {
    const q = new QueryReader(query, SCALE_PARAMS);
    const min = q.integer('min_worker', 0, MAX_WORKERS);
    // At least 1, as a manifest's workers.max: scaling to zero is min_worker=0, and a snapshot holding max 0 could not be restored.
    const max = q.integer('max_worker', 1, MAX_WORKERS);
    q.boolean('synchronous');
    q.integer('timeout', -1);
    if (min === undefined && max === undefined) {
      throw new SluiceError('SLUICE_MANAGEMENT_INVALID_ARGUMENT', 'give min_worker and/or max_worker to scale a model');
    }
    const scaled = await this.core.manager.scale(model, version, { min, max });
    return {
      status: `Model "${scaled.name}" version ${scaled.version} now has min_worker=${scaled.settings.minWorkers}, max_worker=${scaled.settings.maxWorkers}`,
    };
  }
}
