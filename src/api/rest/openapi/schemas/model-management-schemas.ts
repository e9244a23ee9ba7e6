import { REGISTRATION_LIMITS } from '../../../models/registration-limits.js';
import { closedObject, listOf, schemaRef, type JsonSchema } from './json-schema.js';
import { sluiceSchemaPart } from './sluice-schema-part.js';

/** A part of the model manifest's schema, without the manifest's defaults (an answer always has the value). */
function manifestPart(pointer: string): JsonSchema {
  return sluiceSchemaPart('model.schema.json', pointer, ['default']);
}

/** A manifest batching setting, as the description of a version shows it. */
function batchingPart(key: string): JsonSchema {
  return manifestPart(`/properties/batching/properties/${key}`);
}

const COUNT = { type: 'integer', minimum: 0 };
const DATE_TIME = { type: 'string', format: 'date-time' };
const NOT_LOADED = { type: 'string', enum: ['NOT_LOADED'] };

/** Names, versions and the bounded settings that registration parameters and manifests share. */
function settingSchemas(): Record<string, JsonSchema> {
  return {
    ModelName: sluiceSchemaPart('model.schema.json', '/properties/name'),
    ModelVersion: sluiceSchemaPart('model.schema.json', '/properties/version'),
    PriorityLevel: { description: 'A priority level: 1 is the highest; a model has 1 to its priorityLevels.', ...sluiceSchemaPart('model.schema.json', '/properties/batching/properties/priorityLevels', ['description', 'default']) },
    QueuePolicy: batchingPart('queuePolicy'),
    JobQueueSize: manifestPart('/properties/jobQueueSize'),
    BatchSize: { description: 'Rows one run takes at most; 1 turns batching off.', type: 'integer', minimum: 1, maximum: REGISTRATION_LIMITS.maxBatchSize },
    WorkerCount: { description: 'A number of workers (model instances).', type: 'integer', minimum: 0, maximum: REGISTRATION_LIMITS.maxWorkers },
  };
}

/** The model management bodies: the status of a change, the model list and the descriptions of versions. */
export function modelManagementSchemas(): Record<string, JsonSchema> {
  return {
    ...settingSchemas(),
    ManagementStatus: closedObject('What a management change did, in words.', { status: { type: 'string' } }),
    ModelList: closedObject(
      'A page of the registered models, by name.',
      {
        models: listOf(schemaRef('ModelListEntry')),
        nextPageToken: { description: 'Give it as next_page_token for the next page; absent on the last one.', type: 'string', pattern: '^[0-9]+$' },
      },
      ['models'],
    ),
    ModelListEntry: closedObject(
      'A registered model: TorchServe’s two fields, and `status` only for a model the snapshot holds but start-up could not load.',
      { modelName: schemaRef('ModelName'), modelUrl: { type: 'string' }, status: NOT_LOADED },
      ['modelName', 'modelUrl'],
    ),
    ModelDescriptions: { description: 'The versions described: one, or every one for `all`.', type: 'array', minItems: 1, items: schemaRef('ModelVersionDescription') },
    ModelVersionDescription: { oneOf: [schemaRef('LoadedModelVersion'), schemaRef('NotLoadedModelVersion')] },
    LoadedModelVersion: closedObject(
      'A loaded version: TorchServe’s field names and units, and Sluice’s own fields.',
      {
        modelName: schemaRef('ModelName'),
        modelVersion: schemaRef('ModelVersion'),
        modelUrl: { type: 'string' },
        runtime: manifestPart('/properties/runtime'),
        handler: manifestPart('/properties/handler'),
        envelope: manifestPart('/properties/envelope'),
        isDefault: { type: 'boolean' },
        status: {
          description: 'READY: a request would be served; NO_WORKERS: it would be refused (scaled to 0, or no worker up); UNLOADING: being unregistered.',
          type: 'string',
          enum: ['READY', 'NO_WORKERS', 'UNLOADING'],
        },
        minWorkers: schemaRef('WorkerCount'),
        maxWorkers: schemaRef('WorkerCount'),
        batchSize: schemaRef('BatchSize'),
        maxBatchDelay: { description: 'Milliseconds.', type: 'number', minimum: 0 },
        responseTimeout: { description: 'Seconds.', type: 'number', exclusiveMinimum: 0 },
        jobQueueSize: schemaRef('JobQueueSize'),
        device: manifestPart('/properties/device'),
        executionProvider: { description: 'The ONNX Runtime execution provider the version runs on.', type: 'string' },
        executor: manifestPart('/properties/executor'),
        loadedAt: DATE_TIME,
        workers: listOf(schemaRef('Worker')),
        jobQueueStatus: closedObject('The version’s queue now.', { remainingCapacity: COUNT, pendingRequests: COUNT, executing: COUNT }),
        batching: schemaRef('BatchingDescription'),
        recentBatchSizes: listOf({ type: 'integer', minimum: 1 }, 'Requests per batch of the latest batches, oldest first.'),
        autoscale: closedObject('Whether the autoscaler acts (false while held at zero workers), and its latest decisions.', {
          enabled: { type: 'boolean' },
          decisions: listOf(schemaRef('AutoscaleDecision')),
        }),
        inputs: listOf(schemaRef('TensorSpec')),
        outputs: listOf(schemaRef('TensorSpec')),
      },
      [
        'modelName',
        'modelVersion',
        'modelUrl',
        'runtime',
        'handler',
        'isDefault',
        'status',
        'minWorkers',
        'maxWorkers',
        'batchSize',
        'maxBatchDelay',
        'responseTimeout',
        'jobQueueSize',
        'device',
        'executionProvider',
        'executor',
        'loadedAt',
        'workers',
        'jobQueueStatus',
        'batching',
        'recentBatchSizes',
        'autoscale',
        'inputs',
        'outputs',
      ],
    ),
    NotLoadedModelVersion: closedObject(
      'A version the snapshot holds but start-up could not load: what the snapshot records and why it did not load. It serves nothing; the next start tries again.',
      {
        modelName: schemaRef('ModelName'),
        modelVersion: schemaRef('ModelVersion'),
        modelUrl: { type: 'string' },
        isDefault: { type: 'boolean' },
        status: NOT_LOADED,
        loadError: { description: 'The load error’s message.', type: 'string' },
        minWorkers: schemaRef('WorkerCount'),
        maxWorkers: schemaRef('WorkerCount'),
        batchSize: schemaRef('BatchSize'),
        maxBatchDelay: { description: 'Milliseconds.', type: 'number', minimum: 0 },
        responseTimeout: { description: 'Seconds, when the snapshot records it.', type: 'number', exclusiveMinimum: 0 },
        jobQueueSize: schemaRef('JobQueueSize'),
        workers: { type: 'array', maxItems: 0 },
      },
      ['modelName', 'modelVersion', 'modelUrl', 'isDefault', 'status', 'loadError', 'minWorkers', 'maxWorkers', 'batchSize', 'maxBatchDelay', 'workers'],
    ),
    Worker: closedObject('A worker (model instance).', {
      id: { type: 'string' },
      startTime: DATE_TIME,
      status: { type: 'string', enum: ['STARTING', 'READY', 'BUSY', 'RETIRING', 'FAILED'] },
      device: { type: 'string' },
      jobsServed: COUNT,
      batches: COUNT,
      utilization: { description: 'Busy fraction over the autoscaler’s last look.', type: 'number', minimum: 0, maximum: 1 },
    }),
    BatchingDescription: closedObject('The version’s batching settings, and whether it batches at all (it can, and its batch size is above 1).', {
      enabled: { type: 'boolean' },
      maxBatchSize: batchingPart('maxBatchSize'),
      maxBatchDelayMs: batchingPart('maxBatchDelayMs'),
      preferredBatchSizes: batchingPart('preferredBatchSizes'),
      priorityLevels: batchingPart('priorityLevels'),
      defaultPriority: batchingPart('defaultPriority'),
      queuePolicy: schemaRef('QueuePolicy'),
      preserveOrdering: batchingPart('preserveOrdering'),
    }),
    AutoscaleDecision: closedObject('One decision of the autoscaler.', {
      at: DATE_TIME,
      from: COUNT,
      to: COUNT,
      reason: { type: 'string' },
    }),
  };
}
