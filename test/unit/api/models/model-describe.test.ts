import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { describeVersion } from '../../../../src/api/models/model-describe.js';
import type { ModelRegistry } from '../../../../src/serving/model-registry.js';
import { fakeModelVersion, jobOf } from '../../serving/support/fake-model-version.js';

const registry = { defaultVersionOf: () => '1' } as unknown as ModelRegistry;

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('describeVersion: jobQueueStatus', () => {
  it('shows no remaining capacity, never a negative one, when a retried request overfills the queue', async () => {
    const { version, model } = fakeModelVersion({ settings: { jobQueueSize: 1 } });
    await version.started();
    const answers = [version.scheduler.enqueue(jobOf(1)), version.scheduler.enqueue(jobOf(2))].map((p) => p.catch((error: unknown) => error));
    await jest.advanceTimersByTimeAsync(0);
    model.runs[0]!.reject(new Error('device lost')); // request 1 goes back in front of request 2
    await jest.advanceTimersByTimeAsync(0);
    const status = describeVersion(version, registry).jobQueueStatus;
    const unloading = version.unload();
    await jest.advanceTimersByTimeAsync(0);
    await Promise.all([unloading, ...answers]);
    expect(status).toEqual({ remainingCapacity: 0, pendingRequests: 2, executing: 0 });
  });

  it('shows what is left of the queue', async () => {
    const { version, model } = fakeModelVersion({ settings: { jobQueueSize: 3 } });
    await version.started();
    const answers = [version.scheduler.enqueue(jobOf(1)), version.scheduler.enqueue(jobOf(2))].map((p) => p.catch((error: unknown) => error));
    await jest.advanceTimersByTimeAsync(0);
    const status = describeVersion(version, registry).jobQueueStatus;
    model.runs[0]!.succeed();
    const unloading = version.unload();
    await jest.advanceTimersByTimeAsync(0);
    await Promise.all([unloading, ...answers]);
    expect(status).toEqual({ remainingCapacity: 2, pendingRequests: 1, executing: 1 });
  });
});
