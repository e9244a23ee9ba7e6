import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { DeadlineSweep, type SweptCall } from '../../../src/serving/stage-deadline/deadline-sweep.js';

/** A call that records when it was expired. */
class TestCall implements SweptCall {
  expired = false;
  linked = false;
  prev: SweptCall | undefined = undefined;
  next: SweptCall | undefined = undefined;
  /** The `now` of each expiry. */
  readonly expiries: number[] = [];

  constructor(readonly deadline: number) {}

  expire(now: number): void {
    this.expiries.push(now);
  }
}

/** A call due `ms` from now. */
const dueIn = (ms: number): TestCall => new TestCall(performance.now() + ms);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `call` has been expired. */
async function expiryOf(call: TestCall): Promise<number> {
  while (call.expiries.length === 0) await sleep(2);
  return call.expiries[0] ?? NaN;
}

describe('DeadlineSweep', () => {
  let sweep: DeadlineSweep;
  beforeEach(() => {
    sweep = new DeadlineSweep();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('expires an entered call once its deadline has passed, and no sooner', async () => {
    const call = dueIn(30);
    sweep.enter(call);
    expect(await expiryOf(call)).toBeGreaterThanOrEqual(call.deadline);
    expect(call.expired).toBe(true);
    expect(sweep.pending).toBe(0);
  });

  it('leaves a call alone past its deadline once it left', async () => {
    const call = dueIn(10);
    sweep.enter(call);
    sweep.leave(call);
    await sleep(40);
    expect(call.expiries).toEqual([]);
    expect(call.expired).toBe(false);
  });

  it('unlinks a call that leaves from the middle of the list, and keeps watching the others', async () => {
    const [a, b, c] = [dueIn(20), dueIn(20), dueIn(20)];
    for (const call of [a, b, c]) sweep.enter(call);
    sweep.leave(b);
    expect(sweep.pending).toBe(2);
    await Promise.all([expiryOf(a), expiryOf(c)]);
    expect(b.expiries).toEqual([]);
    expect(sweep.pending).toBe(0);
  });

  it('expires a call once, and does not watch it again after', async () => {
    const call = dueIn(10);
    sweep.enter(call);
    await expiryOf(call);
    sweep.enter(call);
    expect(sweep.pending).toBe(0);
    await sleep(20);
    expect(call.expiries).toHaveLength(1);
  });

  it('expires each call at its own deadline, leaving later ones waiting', async () => {
    const soon = dueIn(20);
    const later = dueIn(150);
    sweep.enter(later);
    sweep.enter(soon);
    await expiryOf(soon);
    expect(later.expiries).toEqual([]);
    expect(sweep.pending).toBe(1);
    expect(await expiryOf(later)).toBeGreaterThanOrEqual(later.deadline);
  });

  it('sets one unref’d timer for calls whose deadlines come later than the first one’s, and moves it for an earlier one', () => {
    const setTimer = jest.spyOn(globalThis, 'setTimeout');
    const calls = [dueIn(1000)];
    for (let i = 1; i <= 100; i++) calls.push(dueIn(1000 + i));
    for (const call of calls) sweep.enter(call);
    expect(setTimer).toHaveBeenCalledTimes(1);
    expect((setTimer.mock.results[0]?.value as NodeJS.Timeout).hasRef()).toBe(false);
    const earlier = dueIn(500);
    sweep.enter(earlier);
    expect(setTimer).toHaveBeenCalledTimes(2);
    for (const call of [...calls, earlier]) sweep.leave(call);
    sweep.sweep();
    expect(sweep.armed).toBe(false);
  });

  it('keeps its timer as calls come and go, and stops it once a sweep finds nothing to watch', async () => {
    const setTimer = jest.spyOn(globalThis, 'setTimeout');
    const clearTimer = jest.spyOn(globalThis, 'clearTimeout');
    for (const ms of [20, 30, 40]) {
      const call = dueIn(ms);
      sweep.enter(call);
      sweep.leave(call);
    }
    expect(setTimer).toHaveBeenCalledTimes(1);
    expect(clearTimer).not.toHaveBeenCalled();
    expect(sweep.armed).toBe(true);
    await sleep(50);
    expect(sweep.armed).toBe(false);
  });

  it('waits quietly for a deadline further off than a timer can hold, instead of sweeping every millisecond', async () => {
    const setTimer = jest.spyOn(globalThis, 'setTimeout');
    const far = dueIn(30 * 24 * 3600 * 1000);
    sweep.enter(far);
    await sleep(30);
    // The sweep's timer and this test's sleep: a timer set beyond 2^31 - 1 ms would fire at once and be set again.
    expect(setTimer).toHaveBeenCalledTimes(2);
    expect(setTimer.mock.calls[0]?.[1]).toBe(2 ** 31 - 1);
    expect(far.expiries).toEqual([]);
    sweep.leave(far);
    sweep.sweep();
  });
});

