import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import { executeWorkflow } from '../../../../src/workflow/index.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

function withBroken(error: () => Error = () => new Error('boom')): WorkflowHarness {
  return new WorkflowHarness()
    .handler('t/broken', { inputs: [], outputs: { out: {}, extra: {} }, run: () => Promise.reject(error()) })
    .handler('t/tag', compute(['in'], ['out'], (v) => ({ out: `tag(${String(v['in'])})` })));
}

describe('onError', () => {
  /*
   *   broken (onError: skip) ──▶ after ──▶ out = after.out ?? $request.x
   */
  it('skip: skips the failed node and the nodes that depend only on it', async () => {
    const harness = withBroken();
    const plan = harness.plan(
      workflow('skip')
        .input('x')
        .handler('broken', 't/broken', {}, { onError: 'skip' })
        .handler('after', 't/tag', { in: 'broken.out' })
        .output('out', 'after.out ?? $request.x'),
    );
    const result = await harness.run(plan, { x: 'default' }, { debug: true });
    expect(result.outputs).toEqual({ out: 'default' });
    expect(result.debug?.skipped).toEqual(['broken', 'after']);
    expect(result.debug?.nodes['broken']).toMatchObject({ status: 'skipped', reason: 'workflow `skip` node `broken` (handler t/broken) failed: boom' });
    expect(harness.logger.lines).toEqual([
      {
        level: 'warn',
        message: 'workflow node failed; skipping it',
        fields: { workflow: 'skip', node: 'broken', error: 'workflow `skip` node `broken` (handler t/broken) failed: boom' },
      },
    ]);
  });

  /*
   *   broken (onError: fallback { out: "?" }) ──▶ after ──▶ out
   */
  it('fallback: gives the fallback outputs to the nodes downstream', async () => {
    const harness = withBroken();
    const plan = harness.plan(
      workflow('fallback')
        .handler('broken', 't/broken', {}, { onError: { fallback: { out: '?' } } })
        .handler('after', 't/tag', { in: 'broken.out' })
        .output('out', 'after.out'),
    );
    const result = await harness.run(plan, {}, { debug: true });
    expect(result.outputs).toEqual({ out: 'tag(?)' });
    expect(result.debug?.nodes['broken']).toMatchObject({ status: 'fallback', reason: 'workflow `fallback` node `broken` (handler t/broken) failed: boom' });
  });

  /*
   *   broken (onError: fallback { out: "?" }) ──▶ out = broken.extra ?? broken.out
   */
  it('fallback: leaves the outputs it does not name absent', async () => {
    const harness = withBroken();
    const plan = harness.plan(workflow('partial').handler('broken', 't/broken', {}, { onError: { fallback: { out: '?' } } }).output('out', 'broken.extra ?? broken.out'));
    expect((await harness.run(plan)).outputs).toEqual({ out: '?' });
  });

  /*
   *   broken (defaults: onError skip) ──▶ out = broken.out ?? $request.x
   */
  it('takes onError from `defaults`', async () => {
    const harness = withBroken();
    const plan = harness.plan(workflow('defaults').defaults({ onError: 'skip' }).input('x').handler('broken', 't/broken').output('out', 'broken.out ?? $request.x'));
    expect((await harness.run(plan, { x: 1 })).outputs).toEqual({ out: 1 });
  });

  /*
   *   broken (onError: fail, the default) ──▶ out
   */
  it('fail: fails the run with an error naming the node and the cause', async () => {
    const cause = new Error('boom');
    const harness = withBroken(() => cause);
    const plan = harness.plan(workflow('strict').handler('broken', 't/broken').output('out', 'broken.out'));
    const failure = await harness.run(plan).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      category: 'INTERNAL',
      message: 'workflow `strict` node `broken` (handler t/broken) failed: boom',
      details: { workflow: 'strict', node: 'broken', attempts: 1 },
      cause,
    });
  });

  /*
   *   busy (model caller: queue full) ──▶ out        the client can retry later: the code is kept
   */
  it('keeps the code of an error a client can act on', async () => {
    const harness = withBroken(() => new SluiceError('SLUICE_QUEUE_FULL', 'the queue of model m is full', { retryAfterSeconds: 1 }));
    const plan = harness.plan(workflow('busy').handler('busy', 't/broken').output('out', 'busy.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_QUEUE_FULL',
      message: 'workflow `busy` node `busy` (handler t/broken): the queue of model m is full',
      details: { retryAfterSeconds: 1, workflow: 'busy', node: 'busy', attempts: 1 },
    });
  });

  /*
   *   empty (its handler answers null) ──▶ after ──▶ out        the node fails; the run does not hang
   */
  it('fails a node whose handler answers null instead of its outputs', async () => {
    const harness = withBroken().handler('t/null', { inputs: [], outputs: { out: {} }, run: () => Promise.resolve(null as unknown as Record<string, unknown>) });
    const plan = harness.plan(workflow('empty').handler('empty', 't/null').handler('after', 't/tag', { in: 'empty.out' }).output('out', 'after.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `empty` node `empty` (handler t/null) failed: the handler returned no outputs mapping',
    });
  });

  /*
   *   gone (handler not registered at run time) ──▶ out
   */
  it('fails a node whose handler is no longer registered', async () => {
    const harness = withBroken();
    const plan = harness.plan(workflow('gone').handler('gone', 't/tag', { in: { value: 1 } }).output('out', 'gone.out'));
    const services = { ...harness.services(), handler: () => undefined };
    await expect(executeWorkflow(plan, {}, services)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `gone` node `gone` (handler t/tag) failed: handler `t/tag` is not registered',
    });
  });
});
