import { describe, expect, it } from '@jest/globals';
import { DEFAULT_CONFIG } from '../../../src/config/index.js';
import type { ModelManifest } from '../../../src/model-store/index.js';
import { resolveSettings } from '../../../src/serving/model-loader.js';
import { SETTINGS } from './support/fake-model-version.js';

/** A manifest as the manifest loader makes it, with the worker bounds and autoscale switch given. */
function manifest(min: number, max: number, declaredAutoscaleEnabled?: boolean): ModelManifest {
  return {
    batching: { maxBatchSize: 1, maxBatchDelayMs: 0, preferredBatchSizes: [], priorityLevels: 1, defaultPriority: 1, queuePolicy: 'reject', preserveOrdering: false },
    workers: { min, max, autoscale: { ...SETTINGS.autoscale, enabled: (declaredAutoscaleEnabled ?? true) && max > min } },
    ...(declaredAutoscaleEnabled !== undefined ? { declaredAutoscaleEnabled } : {}),
  } as unknown as ModelManifest;
}

describe('resolveSettings: autoscaling', () => {
  it('turns autoscaling on when registration overrides raise max above min', () => {
    expect(resolveSettings(manifest(1, 1), DEFAULT_CONFIG, { maxWorkers: 4 }).autoscale.enabled).toBe(true);
  });

  it('turns autoscaling off when registration overrides bring max down to min', () => {
    expect(resolveSettings(manifest(1, 4), DEFAULT_CONFIG, { minWorkers: 4 }).autoscale.enabled).toBe(false);
  });

  it('keeps autoscaling off when the manifest switches it off, whatever the bounds', () => {
    expect(resolveSettings(manifest(1, 1, false), DEFAULT_CONFIG, { maxWorkers: 4 }).autoscale.enabled).toBe(false);
  });
});
