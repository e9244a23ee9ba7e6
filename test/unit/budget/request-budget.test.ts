import { describe, expect, it } from '@jest/globals';
import { NOT_CANCELLED, RequestBudget, signalCancellation } from '../../../src/budget/request-budget.js';

describe('RequestBudget.of', () => {
  it('sets no deadline, no own timeout and no priority when given nothing', () => {
    const budget = RequestBudget.of({}, 100);
    expect({ deadline: budget.deadline, timeoutAt: budget.timeoutAt, timeoutMs: budget.timeoutMs, priority: budget.priority }).toEqual({
      deadline: Infinity,
      timeoutAt: Infinity,
      timeoutMs: undefined,
      priority: undefined,
    });
  });

  it('counts the client’s deadline and the own timeout from when it is made', () => {
    const budget = RequestBudget.of({ deadlineMs: 50, timeoutMs: 20 }, 100);
    expect({ deadline: budget.deadline, timeoutAt: budget.timeoutAt, timeoutMs: budget.timeoutMs }).toEqual({ deadline: 150, timeoutAt: 120, timeoutMs: 20 });
  });

  it('is due at the earlier of its two deadlines', () => {
    expect([RequestBudget.of({ deadlineMs: 50, timeoutMs: 20 }, 100).due, RequestBudget.of({ deadlineMs: 10, timeoutMs: 20 }, 100).due]).toEqual([120, 110]);
  });

  it('is never cancelled without a cancellation', () => {
    const budget = RequestBudget.of();
    expect({ cancelled: budget.isCancelled(), signal: budget.signal }).toEqual({ cancelled: false, signal: undefined });
  });
});

describe('RequestBudget.narrowed', () => {
  it('keeps the smaller own timeout when the request’s parameters give a larger one', () => {
    const budget = RequestBudget.of({ timeoutMs: 20 }, 100).narrowed(60_000, undefined);
    expect({ timeoutMs: budget.timeoutMs, timeoutAt: budget.timeoutAt }).toEqual({ timeoutMs: 20, timeoutAt: 120 });
  });

  it('takes the parameters’ own timeout when it is the smaller, counted from when the budget was made', () => {
    const budget = RequestBudget.of({ timeoutMs: 60_000 }, 100).narrowed(1.5, undefined);
    expect({ timeoutMs: budget.timeoutMs, timeoutAt: budget.timeoutAt }).toEqual({ timeoutMs: 1.5, timeoutAt: 101.5 });
  });

  it('takes the parameters’ own timeout when the edge gave none', () => {
    expect(RequestBudget.of({}, 100).narrowed(30, undefined).timeoutAt).toBe(130);
  });

  it('lets a priority the parameters give replace the edge’s', () => {
    expect(RequestBudget.of({ priority: 3 }, 100).narrowed(undefined, 1).priority).toBe(1);
  });

  it('keeps the edge’s priority when the parameters give none', () => {
    expect(RequestBudget.of({ priority: 3 }, 100).narrowed(10, undefined).priority).toBe(3);
  });

  it('answers the same budget when the parameters ask nothing', () => {
    const budget = RequestBudget.of({ timeoutMs: 20 }, 100);
    expect(budget.narrowed(undefined, undefined)).toBe(budget);
  });

  it('keeps the hard deadline and the cancellation', () => {
    const cancellation = signalCancellation(new AbortController().signal);
    const budget = RequestBudget.of({ deadlineMs: 50, cancellation }, 100).narrowed(10, 2);
    expect({ deadline: budget.deadline, cancellation: budget.cancellation }).toEqual({ deadline: 150, cancellation });
  });
});

describe('RequestBudget.within', () => {
  it('brings the hard deadline forward to a layer’s earlier limit', () => {
    expect(RequestBudget.of({ deadlineMs: 5_000 }, 100).within(1_100).deadline).toBe(1_100);
  });

  it('keeps the client’s deadline when it comes before the layer’s limit', () => {
    expect(RequestBudget.of({ deadlineMs: 50 }, 100).within(1_100).deadline).toBe(150);
  });

  it('answers the same budget when neither the deadline nor the priority changes', () => {
    const budget = RequestBudget.of({ deadlineMs: 50, priority: 2 }, 100);
    expect(budget.within(1_100)).toBe(budget);
  });

  it('sets the priority a layer reads the budget at (a clamp to a version’s levels)', () => {
    expect(RequestBudget.of({ priority: 9 }, 100).within(Infinity, 3).priority).toBe(3);
  });

  it('keeps the own timeout as it was asked', () => {
    const budget = RequestBudget.of({ timeoutMs: 20 }, 100).within(110);
    expect({ timeoutMs: budget.timeoutMs, timeoutAt: budget.timeoutAt }).toEqual({ timeoutMs: 20, timeoutAt: 120 });
  });
});

describe('cancellations', () => {
  it('tells a signal’s abort through the budget', () => {
    const client = new AbortController();
    const budget = RequestBudget.of({ cancellation: signalCancellation(client.signal) });
    const before = budget.isCancelled();
    client.abort();
    expect({ before, after: budget.isCancelled(), signal: budget.signal }).toEqual({ before: false, after: true, signal: client.signal });
  });

  it('watches a told cancellation with its own signal', () => {
    const client = new AbortController();
    expect(signalCancellation(client.signal).watch()).toBe(client.signal);
  });

  it('gives each watcher of a request nobody cancels a signal of its own, never aborted', () => {
    const [first, second] = [NOT_CANCELLED.watch(), NOT_CANCELLED.watch()];
    expect({ same: first === second, aborted: first.aborted || second.aborted }).toEqual({ same: false, aborted: false });
  });
});
