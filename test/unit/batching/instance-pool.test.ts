import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { InstancePool, type PooledInstance } from '../../../src/batching/instance-pool.js';
import { SluiceError } from '../../../src/sdk/errors/index.js';
import { FakeExecutorModel } from './support/fake-executor.js';
import { RecordingLogger } from '../../support/recording-logger.js';

const fatal = new SluiceError('SLUICE_INSTANCE_FAILED', 'instance m-1-1 failed: device lost');

class Harness {
  readonly logger = new RecordingLogger();
  readonly model: FakeExecutorModel;
  readonly pool: InstancePool;
  available = 0;

  constructor(manualStart = false) {
    this.model = new FakeExecutorModel(manualStart);
    this.pool = new InstancePool(this.model, 'm-1', this.logger, () => {
      this.available += 1;
    });
  }

  states(): string[] {
    return this.pool.info().map((i) => i.state);
  }

  /** Takes the idle instance and starts a batch on it, as the scheduler does. */
  busy(): PooledInstance {
    const instance = this.pool.idle();
    if (instance === undefined) throw new Error('no idle instance');
    instance.startBatch();
    return instance;
  }

  /** The `retryInMs` of each replacement the pool logged. */
  backoffs(): unknown[] {
    return this.logger.lines.filter((l) => l.message === 'instance failed; replacing it').map((l) => l.fields.retryInMs);
  }
}

async function settle(ms = 0): Promise<void> {
  await jest.advanceTimersByTimeAsync(ms);
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('InstancePool: starting', () => {
  it('shows an instance as starting until the executor says it is ready', () => {
    const h = new Harness(true);
    h.pool.scale(1);
    expect([h.states(), h.pool.activeCount, h.pool.readyCount]).toEqual([['starting'], 1, 0]);
  });

  it('makes a started instance idle', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    h.model.starts[0]!.succeed();
    await settle();
    expect([h.states(), h.pool.readyCount]).toEqual([['idle'], 1]);
  });

  it('says when an instance became available', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    h.model.starts[0]!.succeed();
    await settle();
    expect(h.available).toBe(1);
  });

  it('shows the device of a started instance', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    expect(h.pool.info()[0]).toMatchObject({ id: 'm-1-1', device: 'fake', jobsServed: 0, batches: 0 });
  });

  it('asks the executor for instances 0, 1, 2 when scaled to three', () => {
    const h = new Harness(true);
    h.pool.scale(3);
    expect(h.model.starts.map((s) => s.index)).toEqual([0, 1, 2]);
  });

  it('resolves started() once an instance is ready', async () => {
    const h = new Harness();
    h.pool.scale(2);
    await h.pool.started();
    expect(h.pool.readyCount).toBe(2);
  });

  it('rejects started() with the start error when no instance could start', async () => {
    const h = new Harness(true);
    h.pool.scale(2);
    const started = h.pool.started();
    h.model.starts[0]!.fail(new Error('out of device memory'));
    h.model.starts[1]!.fail(new Error('out of device memory'));
    await expect(started).rejects.toThrow('out of device memory');
  });

  it('resolves started() when one instance of two could start', async () => {
    const h = new Harness(true);
    h.pool.scale(2);
    const started = h.pool.started();
    h.model.starts[0]!.fail(new Error('out of device memory'));
    h.model.starts[1]!.succeed();
    await started;
    expect([h.pool.readyCount, h.pool.activeCount]).toEqual([1, 1]);
  });

  it('retries a failed start after a backoff once the pool is serving', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    const started = h.pool.started();
    h.model.starts[0]!.succeed();
    await started;
    h.pool.scale(2);
    h.model.starts[1]!.fail(new Error('out of device memory'));
    await settle();
    expect(h.model.starts).toHaveLength(2);
    expect(h.logger.lines).toContainEqual({
      level: 'error',
      message: 'instance failed to start; retrying',
      fields: { instance: 'm-1-2', reason: 'out of device memory', retryInMs: 100 },
    });
    await settle(100);
    expect(h.model.starts).toHaveLength(3);
    h.model.starts[2]!.succeed();
    await settle();
    expect(h.pool.readyCount).toBe(2);
  });

  it('does not retry a start that fails while the pool is loading', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    const started = h.pool.started();
    h.model.starts[0]!.fail(new Error('out of device memory'));
    await expect(started).rejects.toThrow('out of device memory');
    await settle(60_000);
    expect(h.model.starts).toHaveLength(1);
  });

  it('logs an instance that failed to start', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    h.model.starts[0]!.fail(new Error('out of device memory'));
    await settle();
    expect(h.logger.lines).toContainEqual({ level: 'error', message: 'instance failed to start', fields: { instance: 'm-1-1', reason: 'out of device memory' } });
  });
});

describe('InstancePool: scaling', () => {
  it('starts the missing instances when scaled up', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.scale(3);
    await h.pool.started();
    expect([h.states(), h.pool.targetCount]).toEqual([['idle', 'idle', 'idle'], 3]);
  });

  it('gives a new instance the lowest free index', async () => {
    const h = new Harness();
    h.pool.scale(3);
    await h.pool.started();
    h.pool.failed(h.busy(), fatal);
    h.pool.scale(3);
    expect(h.model.created.map((i) => i.index)).toEqual([0, 1, 2, 0]);
  });

  it('removes and releases an idle instance when scaled down', async () => {
    const h = new Harness();
    h.pool.scale(2);
    await h.pool.started();
    h.pool.scale(1);
    expect([h.pool.info().map((i) => i.id), h.model.created.map((i) => i.released)]).toEqual([['m-1-1'], [0, 1]]);
  });

  it('removes a starting instance before an idle one', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    h.model.starts[0]!.succeed();
    await settle();
    h.pool.scale(2);
    h.pool.scale(1);
    expect(h.states()).toEqual(['idle']);
  });

  it('releases a starting instance removed by a scale-down once the executor hands it over', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    h.pool.scale(0);
    const instance = h.model.starts[0]!.succeed();
    await settle();
    expect([instance.released, h.available, h.pool.info()]).toEqual([1, 0, []]);
  });

  it('neither logs nor counts the failed start of an instance a scale-down removed', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    h.model.starts[0]!.succeed();
    await h.pool.started();
    h.pool.scale(2);
    h.pool.scale(1);
    h.model.starts[1]!.fail(new Error('out of device memory'));
    await settle();
    h.pool.failed(h.busy(), fatal);
    expect([h.logger.lines.map((l) => l.message), h.backoffs()]).toEqual([['instance failed; replacing it'], [100]]);
  });

  it('removes an idle instance before a busy one', async () => {
    const h = new Harness();
    h.pool.scale(2);
    await h.pool.started();
    const busy = h.busy();
    h.pool.scale(1);
    expect(h.pool.info().map((i) => [i.id, i.state])).toEqual([[busy.id, 'busy']]);
  });

  it('lets a busy instance finish its batch before it retires', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.busy();
    h.pool.scale(0);
    expect([h.states(), h.model.created[0]!.released]).toEqual([['retiring'], 0]);
  });

  it('removes and releases a retiring instance after its batch', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    const busy = h.busy();
    h.pool.scale(0);
    h.pool.finished(busy, 1);
    expect([h.states(), h.model.created[0]!.released]).toEqual([[], 1]);
  });

  it('keeps a retiring instance when scaled up again before its batch ends', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    const busy = h.busy();
    h.pool.scale(0);
    h.pool.scale(1);
    h.pool.finished(busy, 1);
    expect([h.states(), h.model.created.length]).toEqual([['idle'], 1]);
  });

  it('does not count a retiring instance as active', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.busy();
    h.pool.scale(0);
    expect(h.pool.activeCount).toBe(0);
  });

  it('makes a busy instance idle after its batch and counts its work', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    const busy = h.busy();
    h.pool.finished(busy, 3);
    expect(h.pool.info()[0]).toMatchObject({ state: 'idle', jobsServed: 3, batches: 1 });
  });
});

describe('InstancePool: failures', () => {
  it('removes and releases a failed instance', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.failed(h.busy(), fatal);
    expect([h.pool.info(), h.model.created[0]!.released]).toEqual([[], 1]);
  });

  it('logs the failure with its backoff', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.failed(h.busy(), fatal);
    expect(h.logger.lines).toContainEqual({
      level: 'error',
      message: 'instance failed; replacing it',
      fields: { instance: 'm-1-1', reason: 'instance m-1-1 failed: device lost', retryInMs: 100 },
    });
  });

  it('does not replace a failed instance before the backoff', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.failed(h.busy(), fatal);
    await settle(99);
    expect(h.model.created).toHaveLength(1);
  });

  it('replaces a failed instance with the same index after the backoff', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.failed(h.busy(), fatal);
    await settle(100);
    expect([h.model.created.map((i) => i.index), h.states()]).toEqual([[0, 0], ['idle']]);
  });

  it('doubles the backoff for each failure in a row', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    for (const wait of [100, 200, 400]) {
      h.pool.failed(h.busy(), fatal);
      await settle(wait);
    }
    expect(h.backoffs()).toEqual([100, 200, 400]);
  });

  it('starts the backoff over after a batch succeeded', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.failed(h.busy(), fatal);
    await settle(100);
    h.pool.finished(h.busy(), 1);
    h.pool.failed(h.busy(), fatal);
    expect(h.backoffs()).toEqual([100, 100]);
  });

  it('caps the backoff at ten seconds', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    for (let i = 0; i < 9; i++) {
      h.pool.failed(h.busy(), fatal);
      await settle(10_000);
    }
    expect(h.backoffs().slice(-3)).toEqual([6400, 10_000, 10_000]);
  });

  it('does not replace a failed instance that was retiring', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    const busy = h.busy();
    h.pool.scale(0);
    h.pool.failed(busy, fatal);
    await settle(10_000);
    expect(h.model.created).toHaveLength(1);
  });

  it('does not replace a failed instance once the pool scaled down to zero', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.failed(h.busy(), fatal);
    h.pool.scale(0);
    await settle(10_000);
    expect(h.model.created).toHaveLength(1);
  });

  it('does not replace a failed instance once the pool is closed', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    const busy = h.busy();
    await h.pool.close();
    h.pool.failed(busy, fatal);
    await settle(10_000);
    expect(h.model.created).toHaveLength(1);
  });
});

describe('InstancePool: utilisation', () => {
  it('reports the busy fraction of the window', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.sampleUtilization();
    await settle(50);
    const busy = h.busy();
    await settle(50);
    h.pool.finished(busy, 1);
    expect(h.pool.sampleUtilization()).toBe(0.5);
  });

  it('counts a batch still running at the sample', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.sampleUtilization();
    await settle(50);
    h.busy();
    await settle(50);
    expect(h.pool.sampleUtilization()).toBe(0.5);
  });

  it('does not count a batch’s time twice across windows', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.sampleUtilization();
    const busy = h.busy();
    await settle(50);
    h.pool.sampleUtilization();
    await settle(50);
    h.pool.finished(busy, 1);
    await settle(50);
    expect(h.pool.sampleUtilization()).toBe(0.5);
  });

  it('counts a batch still running on an instance a scale-down is retiring', async () => {
    const h = new Harness();
    h.pool.scale(1);
    await h.pool.started();
    h.pool.sampleUtilization();
    h.busy();
    await settle(50);
    h.pool.sampleUtilization();
    h.pool.scale(0);
    await settle(50);
    expect(h.pool.sampleUtilization()).toBe(1);
  });

  it('averages over the instances', async () => {
    const h = new Harness();
    h.pool.scale(2);
    await h.pool.started();
    h.pool.sampleUtilization();
    h.busy();
    await settle(100);
    expect(h.pool.sampleUtilization()).toBe(0.5);
  });

  it('shows each instance’s last sample in info()', async () => {
    const h = new Harness();
    h.pool.scale(2);
    await h.pool.started();
    h.pool.sampleUtilization();
    h.busy();
    await settle(100);
    h.pool.sampleUtilization();
    expect(h.pool.info().map((i) => i.utilization)).toEqual([1, 0]);
  });

  it('samples zero without instances', () => {
    expect(new Harness().pool.sampleUtilization()).toBe(0);
  });
});

describe('InstancePool: close', () => {
  it('releases every instance', async () => {
    const h = new Harness();
    h.pool.scale(2);
    await h.pool.started();
    await h.pool.close();
    expect([h.model.created.map((i) => i.released), h.pool.info()]).toEqual([[1, 1], []]);
  });

  it('waits for an instance still starting', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    let closed = false;
    const closing = h.pool.close().then(() => {
      closed = true;
    });
    await settle(10_000);
    expect(closed).toBe(false);
    h.model.starts[0]!.succeed();
    await closing;
  });

  it('releases an instance that finishes starting after the close began, and never makes it available', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    const closing = h.pool.close();
    const instance = h.model.starts[0]!.succeed();
    await closing;
    expect([instance.released, h.available, h.pool.info()]).toEqual([1, 0, []]);
  });

  it('waits until the instance of a late start is released', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    const closing = h.pool.close();
    const instance = h.model.starts[0]!.succeed();
    let endRelease: (() => void) | undefined;
    jest.spyOn(instance, 'release').mockImplementation(
      () =>
        new Promise<void>((resolve) => {
          endRelease = resolve;
        }),
    );
    let closed = false;
    const watched = closing.then(() => {
      closed = true;
    });
    await settle();
    expect([endRelease !== undefined, closed]).toEqual([true, false]);
    endRelease?.();
    await watched;
  });

  it('resolves once an instance that fails to start after the close began has failed', async () => {
    const h = new Harness(true);
    h.pool.scale(1);
    const closing = h.pool.close();
    h.model.starts[0]!.fail(new Error('no device'));
    await closing;
    expect(h.pool.info()).toEqual([]);
  });

  it('starts no instance once closed', async () => {
    const h = new Harness(true);
    await h.pool.close();
    h.pool.scale(2);
    expect([h.model.starts.length, h.pool.info()]).toEqual([0, []]);
  });
});
