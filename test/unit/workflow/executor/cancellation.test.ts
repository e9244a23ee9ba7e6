import { describe, expect, it } from '@jest/globals';
import { RequestBudget, signalCancellation } from '../../../../src/budget/request-budget.js';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import type { NodeHandlerContext } from '../../../../src/sdk/index.js';
import { Gate, never } from '../support/gate.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

/** A handler that never answers, keeping its context so tests can see its signal. */
function hanging(): { harness: WorkflowHarness; started: Gate; context: () => NodeHandlerContext | undefined } {
  let seen: NodeHandlerContext | undefined;
  const started = new Gate();
  const harness = new WorkflowHarness()
    .handler('t/hang', {
      inputs: [],
      outputs: { out: {} },
      run: (_v, context) => {
        seen = context;
        started.open();
        return never();
      },
    })
    .handler('t/pass', compute(['in'], ['out'], (v) => ({ out: v['in'] })));
  return { harness, started, context: () => seen };
}

describe('timeouts and cancellation', () => {
  /*
   *   stuck (never answers; timeoutMs 20) ──▶ out
   */
  it('times out a node that never answers', async () => {
    const { harness, context } = hanging();
    const plan = harness.plan(workflow('slow').handler('stuck', 't/hang', {}, { timeoutMs: 20 }).output('out', 'stuck.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_TIMEOUT',
      category: 'DEADLINE_EXCEEDED',
      message: 'workflow `slow` node `stuck` (handler t/hang) did not answer within 20 ms',
      details: { workflow: 'slow', node: 'stuck', attempts: 1, timeoutMs: 20 },
    });
    expect(context()?.signal.aborted).toBe(true);
  });

  /*
   *   stuck (never answers; retry: 2 attempts; timeoutMs 10) ──▶ out
   */
  it('says how many attempts timed out', async () => {
    const { harness } = hanging();
    const plan = harness.plan(workflow('slow').handler('stuck', 't/hang', {}, { timeoutMs: 10, retry: { attempts: 2 } }).output('out', 'stuck.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_TIMEOUT',
      message: 'workflow `slow` node `stuck` (handler t/hang) did not answer within 10 ms after 2 attempts',
    });
  });

  /*
   *   stuck (never answers; node timeout 1 h) ──▶ out        the request's deadline (20 ms) ends the run
   */
  it('cancels outstanding nodes at the request’s deadline', async () => {
    const { harness, context } = hanging();
    const plan = harness.plan(workflow('deadline').handler('stuck', 't/hang', {}, { timeoutMs: 3_600_000 }).output('out', 'stuck.out'));
    await expect(harness.run(plan, {}, { budget: RequestBudget.of({ timeoutMs: 20 }) })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
      message: 'workflow `deadline` did not finish within 20 ms; still running: stuck',
      details: { workflow: 'deadline', timeoutMs: 20, running: ['stuck'] },
    });
    expect(context()?.signal.aborted).toBe(true);
  });

  /*
   *   slow (answers when the test opens its gate) ──▶ out        a deadline of 2^31 ms is past what
   *                                                              one timer can wait, not 1 ms away
   */
  it('keeps a request deadline longer than a timer can wait', async () => {
    const gate = new Gate();
    const harness = new WorkflowHarness().handler('t/slow', { inputs: [], outputs: { out: {} }, run: () => gate.opened.then(() => ({ out: 'done' })) });
    const plan = harness.plan(workflow('patient').handler('slow', 't/slow').output('out', 'slow.out'));
    const run = harness.run(plan, {}, { budget: RequestBudget.of({ timeoutMs: 2 ** 31 }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    gate.open();
    expect((await run).outputs).toEqual({ out: 'done' });
  });

  /*
   *   stuck (never answers) ──▶ out        the client goes away while stuck runs
   */
  it('cancels outstanding nodes when the signal aborts', async () => {
    const { harness, started, context } = hanging();
    const plan = harness.plan(workflow('abort').handler('stuck', 't/hang').output('out', 'stuck.out'));
    const client = new AbortController();
    const run = harness.run(plan, {}, { budget: RequestBudget.of({ cancellation: signalCancellation(client.signal) }) });
    await started.opened;
    client.abort();
    await expect(run).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_CANCELLED',
      message: 'workflow `abort` was cancelled; still running: stuck',
    });
    expect(context()?.signal.aborted).toBe(true);
  });

  /*
   *   stuck ──▶ out        the server stops: its own error is the run's error
   */
  it('fails with the abort reason when it is a Sluice error', async () => {
    const { harness, started } = hanging();
    const plan = harness.plan(workflow('abort').handler('stuck', 't/hang').output('out', 'stuck.out'));
    const server = new AbortController();
    const run = harness.run(plan, {}, { budget: RequestBudget.of({ cancellation: signalCancellation(server.signal) }) });
    await started.opened;
    const stopping = new SluiceError('SLUICE_SERVER_SHUTTING_DOWN', 'the server is stopping');
    server.abort(stopping);
    await expect(run).rejects.toBe(stopping);
  });

  /*
   *   a ──▶ out        the signal was aborted before the run began: nothing starts
   */
  it('starts nothing when the signal is already aborted', async () => {
    const { harness } = hanging();
    const plan = harness.plan(workflow('late').handler('a', 't/pass', { in: { value: 1 } }).output('out', 'a.out'));
    await expect(harness.run(plan, {}, { budget: RequestBudget.of({ cancellation: signalCancellation(AbortSignal.abort()) }) })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_CANCELLED',
      message: 'workflow `late` was cancelled; no node was running',
    });
    expect(harness.started).toEqual([]);
  });

  /*
   *   stuck (never answers) ──▶ out.a
   *   broken (fails)        ──▶ out.b        broken fails the run: stuck is cancelled
   */
  it('cancels the other branches when a node fails the run', async () => {
    const { harness, started, context } = hanging();
    harness.handler('t/broken', {
      inputs: [],
      outputs: { out: {} },
      run: async () => {
        await started.opened;
        throw new Error('boom');
      },
    });
    const plan = harness.plan(workflow('fail').handler('stuck', 't/hang').handler('broken', 't/broken').output('a', 'stuck.out').output('b', 'broken.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({ code: 'SLUICE_WORKFLOW_NODE_FAILED', message: 'workflow `fail` node `broken` (handler t/broken) failed: boom' });
    expect(context()?.signal.aborted).toBe(true);
  });
});
