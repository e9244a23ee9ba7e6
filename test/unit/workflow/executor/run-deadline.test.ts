import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import type { NodeHandlerContext } from '../../../../src/sdk/index.js';
import { flaky } from '../support/flaky-handler.js';
import { Gate, never } from '../support/gate.js';
import { WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

/** A handler that never answers, keeping the context of its last call so tests can see its signal. */
function hanging(): { harness: WorkflowHarness; context: () => NodeHandlerContext | undefined } {
  let seen: NodeHandlerContext | undefined;
  const harness = new WorkflowHarness().handler('t/hang', {
    inputs: [],
    outputs: { out: {} },
    run: (_v, context) => {
      seen = context;
      return never();
    },
  });
  return { harness, context: () => seen };
}

const HOUR = 3_600_000;

describe('the deadline of a whole run', () => {
  /*
   *   stuck (never answers; node timeout 1 h) ──▶ out        responseTimeoutMs: 20
   */
  it('ends a run at its workflow’s responseTimeoutMs, naming the limit and the nodes still running', async () => {
    const { harness, context } = hanging();
    const plan = harness.plan(workflow('bounded').responseTimeout(20).handler('stuck', 't/hang', {}, { timeoutMs: HOUR }).output('out', 'stuck.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
      category: 'DEADLINE_EXCEEDED',
      message:
        "workflow `bounded` did not finish within its responseTimeoutMs of 20 ms; still running: stuck; raise `responseTimeoutMs` in the workflow file, or lower its nodes' `timeoutMs`, `retry.attempts` and `retry.backoffMs`",
      details: { workflow: 'bounded', timeoutMs: 20, limit: 'workflow', running: ['stuck'] },
    });
    expect(context()?.signal.aborted).toBe(true);
  });

  /*
   *   stuck (never answers; node timeout 1 h) ──▶ out        no responseTimeoutMs; the server's is 20
   */
  it('ends a run of a workflow that sets no responseTimeoutMs at the server’s default', async () => {
    const { harness } = hanging();
    const plan = harness.plan(workflow('unbounded').handler('stuck', 't/hang', {}, { timeoutMs: HOUR }).output('out', 'stuck.out'));
    await expect(harness.run(plan, {}, { defaultResponseTimeoutMs: 20 })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
      message: "workflow `unbounded` did not finish within the server's responseTimeoutMs of 20 ms; still running: stuck; set `responseTimeoutMs` in the workflow file to give its runs longer",
      details: { timeoutMs: 20, limit: 'server' },
    });
  });

  /*
   *   stuck (never answers) ──▶ out        responseTimeoutMs: 20; the server's default is 1 h
   */
  it('takes the workflow’s responseTimeoutMs over the server’s default', async () => {
    const { harness } = hanging();
    const plan = harness.plan(workflow('bounded').responseTimeout(20).handler('stuck', 't/hang', {}, { timeoutMs: HOUR }).output('out', 'stuck.out'));
    await expect(harness.run(plan, {}, { defaultResponseTimeoutMs: HOUR })).rejects.toMatchObject({ details: { timeoutMs: 20, limit: 'workflow' } });
  });

  /*
   *   stuck (never answers) ──▶ out        responseTimeoutMs: 1 h; the request's deadline is 20 ms
   */
  it('ends the run at the request’s deadline when it comes first', async () => {
    const { harness } = hanging();
    const plan = harness.plan(workflow('bounded').responseTimeout(HOUR).handler('stuck', 't/hang', {}, { timeoutMs: HOUR }).output('out', 'stuck.out'));
    await expect(harness.run(plan, {}, { budget: RequestBudget.of({ timeoutMs: 20 }) })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
      message: 'workflow `bounded` did not finish within 20 ms; still running: stuck',
      details: { timeoutMs: 20, limit: 'request' },
    });
  });

  /*
   *   stuck (never answers) ──▶ out        responseTimeoutMs: 20; the request's deadline is 1 h
   */
  it('ends the run at its responseTimeoutMs when that comes before the request’s deadline', async () => {
    const { harness } = hanging();
    const plan = harness.plan(workflow('bounded').responseTimeout(20).handler('stuck', 't/hang', {}, { timeoutMs: HOUR }).output('out', 'stuck.out'));
    await expect(harness.run(plan, {}, { budget: RequestBudget.of({ timeoutMs: HOUR }) })).rejects.toMatchObject({ details: { timeoutMs: 20, limit: 'workflow' } });
  });

  /*
   *   flaky (fails at once; 10 attempts, 60 s backoff) ──▶ out        responseTimeoutMs: 50
   */
  it('starts no further attempt once the deadline passes during a retry’s backoff', async () => {
    const { harness, calls } = flaky(Infinity, () => new Error('busy, try later'));
    const plan = harness.plan(
      workflow('retrying').responseTimeout(50).handler('flaky', 't/flaky', {}, { retry: { attempts: 10, backoffMs: 60_000 } }).output('out', 'flaky.out'),
    );
    const started = Date.now();
    await expect(harness.run(plan)).rejects.toMatchObject({ code: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED', details: { running: ['flaky'] } });
    expect(Date.now() - started).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls()).toBe(1);
  });

  /*
   *   slow (answers when the test opens its gate) ──▶ out        responseTimeoutMs: 1 h
   */
  it('lets a run that finishes within its responseTimeoutMs answer', async () => {
    const gate = new Gate();
    const harness = new WorkflowHarness().handler('t/slow', { inputs: [], outputs: { out: {} }, run: () => gate.opened.then(() => ({ out: 'done' })) });
    const plan = harness.plan(workflow('patient').responseTimeout(HOUR).handler('slow', 't/slow').output('out', 'slow.out'));
    const run = harness.run(plan, {}, { defaultResponseTimeoutMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    gate.open();
    expect((await run).outputs).toEqual({ out: 'done' });
  });

  /*
   *   outer:  call (workflow: inner; node timeout 1 h) ──▶ out
   *   inner:  stuck (never answers) ──▶ out        responseTimeoutMs: 20
   */
  it('bounds a sub-workflow’s run by the sub-workflow’s own responseTimeoutMs', async () => {
    const { harness, context } = hanging();
    harness.register(workflow('inner').responseTimeout(20).handler('stuck', 't/hang', {}, { timeoutMs: HOUR }).output('out', 'stuck.out'));
    const plan = harness.plan(workflow('outer').node('call', { workflow: 'inner', timeoutMs: HOUR }).output('out', 'call.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
      message:
        "workflow `outer` node `call` (workflow inner): workflow `inner` did not finish within its responseTimeoutMs of 20 ms; still running: stuck; raise `responseTimeoutMs` in the workflow file, or lower its nodes' `timeoutMs`, `retry.attempts` and `retry.backoffMs`",
      details: { workflow: 'outer', node: 'call', limit: 'workflow' },
    });
    expect(context()?.signal.aborted).toBe(true);
  });
});
