import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ModelVersion } from '../../../src/serving/model-version.js';
import { fakeModelVersion, jobOf } from './support/fake-model-version.js';

const loaded: ModelVersion[] = [];

function version(options: Parameters<typeof fakeModelVersion>[0] = {}): ReturnType<typeof fakeModelVersion> {
  const made = fakeModelVersion(options);
  loaded.push(made.version);
  return made;
}

async function settle(ms = 0): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(async () => {
  for (const v of loaded.splice(0)) {
    const unloading = v.unload();
    await settle();
    await unloading;
  }
  jest.useRealTimers();
});

describe('ModelVersion: autoscaling follows the worker bounds', () => {
  it('turns autoscaling on when max_worker rises above min', async () => {
    const { version: v } = version();
    await v.started();
    v.scaleWorkers(1, 4);
    expect(v.settings.autoscale.enabled).toBe(true);
  });

  it('turns autoscaling off when max_worker falls to min', async () => {
    const { version: v } = version({ settings: { maxWorkers: 4 }, autoscale: { enabled: true } });
    await v.started();
    v.scaleWorkers(2, 2);
    expect(v.settings.autoscale.enabled).toBe(false);
  });

  it('keeps autoscaling off when the model switched it off', async () => {
    const { version: v } = version({ autoscaleSwitchedOff: true });
    await v.started();
    v.scaleWorkers(1, 4);
    expect(v.settings.autoscale.enabled).toBe(false);
  });

  it('adds a worker under load once max_worker rose above min', async () => {
    const { version: v, model } = version({ autoscale: { intervalMs: 100, scaleUpQueueMs: 10, scaleUpAfter: 1, cooldownMs: 0 } });
    await v.started();
    v.scaleWorkers(1, 2);
    const answers = [v.scheduler.enqueue(jobOf(1)), v.scheduler.enqueue(jobOf(2))]; // the second waits for the first
    await settle(100);
    expect(v.workers().map((w) => w.state)).toEqual(['busy', 'busy']);
    for (const run of model.runs) run.succeed();
    await Promise.all(answers);
  });
});

describe('ModelVersion: unload', () => {
  it('releases the model only after an instance still starting finished starting and was released', async () => {
    const { version: v, model } = version({ manualStart: true });
    const unloading = v.unload();
    await settle(10_000);
    const releasedEarly = model.released;
    const instance = model.starts[0]!.succeed();
    await unloading;
    expect([releasedEarly, instance.released, model.released]).toEqual([0, 1, 1]);
  });
});
