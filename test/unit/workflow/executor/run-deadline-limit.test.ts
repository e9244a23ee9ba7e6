import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import { runDeadline } from '../../../../src/workflow/executor/run-deadline.js';

describe('runDeadline', () => {
  it('names the request’s own timeout as it was asked when that ends the run first', () => {
    expect(runDeadline(1_000, undefined, RequestBudget.of({ timeoutMs: 50 }, 0), 10)).toEqual({ timeoutMs: 50, source: 'request', waitMs: 40 });
  });

  it('names the milliseconds left when the client’s hard deadline ends the run first', () => {
    expect(runDeadline(1_000, undefined, RequestBudget.of({ deadlineMs: 300.25, timeoutMs: 500 }, 0), 100)).toEqual({ timeoutMs: 200, source: 'request', waitMs: 200.25 });
  });

  it('keeps the workflow’s responseTimeoutMs when the request’s budget ends later', () => {
    expect(runDeadline(20, 5_000, RequestBudget.of({ timeoutMs: 50 }, 0), 0)).toEqual({ timeoutMs: 20, source: 'workflow', waitMs: 20 });
  });

  it('takes the server’s default for a workflow that sets none, when the request sets nothing', () => {
    expect(runDeadline(undefined, 400, RequestBudget.of({}, 0), 0)).toEqual({ timeoutMs: 400, source: 'server', waitMs: 400 });
  });
});
