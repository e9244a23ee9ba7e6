import { describe, expect, it } from '@jest/globals';
import { DeviceSlots } from '../../../../plugins/gpu-executor/device-slots.js';

/** Lets every already-settled promise callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('DeviceSlots', () => {
  it('grants slots at once up to the limit', async () => {
    const slots = new DeviceSlots(2);
    await slots.acquire();
    await slots.acquire();
    expect(slots.inUse).toBe(2);
  });

  it('makes a caller beyond the limit wait until a slot is given back', async () => {
    const slots = new DeviceSlots(1);
    const release = await slots.acquire();
    let granted = false;
    const waiting = slots.acquire().then(() => (granted = true));
    await settle();
    expect(granted).toBe(false);
    release();
    await waiting;
    expect(granted).toBe(true);
  });

  it('grants waiting callers in the order they asked', async () => {
    const slots = new DeviceSlots(1);
    const release = await slots.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) =>
      slots.acquire().then((next) => {
        order.push(n);
        next();
      }),
    );
    release();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });

  it('does not let a newcomer overtake a waiter when a slot is given back', async () => {
    const slots = new DeviceSlots(1);
    const release = await slots.acquire();
    const order: string[] = [];
    const queued = slots.acquire().then((next) => {
      order.push('queued');
      next();
    });
    release();
    const newcomer = slots.acquire().then((next) => {
      order.push('newcomer');
      next();
    });
    await Promise.all([queued, newcomer]);
    expect(order).toEqual(['queued', 'newcomer']);
  });

  it('frees one slot only when a release is called twice', async () => {
    const slots = new DeviceSlots(2);
    const release = await slots.acquire();
    await slots.acquire();
    release();
    release();
    expect(slots.inUse).toBe(1);
  });

  it('counts the callers waiting', async () => {
    const slots = new DeviceSlots(1);
    await slots.acquire();
    void slots.acquire();
    void slots.acquire();
    expect(slots.waiting).toBe(2);
  });
});
