import type { AutoscaleSettings } from '../../../../src/batching/autoscaler.js';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import type { InferenceJob } from '../../../../src/batching/scheduler.js';
import type { ModelManifest } from '../../../../src/model-store/index.js';
import type { Handler } from '../../../../src/sdk/handler/handler.js';
import { ModelVersion } from '../../../../src/serving/model-version.js';
import type { VersionSettings } from '../../../../src/serving/version-settings.js';
import { RecordingLogger } from '../../../support/recording-logger.js';
import { FakeExecutorModel, taggedInput } from '../../batching/support/fake-executor.js';

/** Settings of a version with one worker, no batching and a queue of 10; autoscaling off (min = max). */
export const SETTINGS: VersionSettings = {
  minWorkers: 1,
  maxWorkers: 1,
  batchSize: 1,
  maxBatchDelayMs: 0,
  preferredBatchSizes: [],
  priorityLevels: 1,
  defaultPriority: 1,
  queuePolicy: 'reject',
  preserveOrdering: false,
  responseTimeoutMs: 60_000,
  jobQueueSize: 10,
  autoscale: { enabled: false, intervalMs: 1000, scaleUpQueueMs: 50, scaleUpAfter: 3, scaleDownIdleMs: 30_000, cooldownMs: 5000 },
};

/** How a test version is made. */
export interface FakeVersionOptions {
  readonly settings?: Partial<Omit<VersionSettings, 'autoscale'>>;
  readonly autoscale?: Partial<AutoscaleSettings>;
  readonly autoscaleSwitchedOff?: boolean;
  /** Instances start when the test settles them in `model.starts`. */
  readonly manualStart?: boolean;
}

/** A real model version (pool, scheduler, autoscaler) over a {@link FakeExecutorModel}, named `m` version `1`. */
export function fakeModelVersion(options: FakeVersionOptions = {}): { version: ModelVersion; model: FakeExecutorModel } {
  const model = new FakeExecutorModel(options.manualStart ?? false);
  const manifest = { name: 'm', version: '1', runtime: 'onnx', handler: 'passthrough', handlerOptions: {}, device: 'cpu', executor: 'fake' } as unknown as ModelManifest;
  const version = new ModelVersion({
    manifest,
    origin: { url: 'm', dir: '/nowhere' },
    description: { name: 'm', version: '1', inputs: model.inputs, outputs: model.outputs, directory: '/nowhere' },
    executorModel: model,
    handler: {} as Handler,
    settings: { ...SETTINGS, ...options.settings, autoscale: { ...SETTINGS.autoscale, ...options.autoscale } },
    autoscaleSwitchedOff: options.autoscaleSwitchedOff ?? false,
    batchable: true,
    logger: new RecordingLogger(),
  });
  return { version, model };
}

/** A job for input {@link taggedInput} `tag` with no deadline. */
export function jobOf(tag: number): InferenceJob {
  return { inputs: [taggedInput(tag)], budget: RequestBudget.of() };
}
