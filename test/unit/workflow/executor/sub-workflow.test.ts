import { describe, expect, it } from '@jest/globals';
import { SluiceError } from '../../../../src/sdk/errors/index.js';
import type { WorkflowObserver } from '../../../../src/workflow/index.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

function withShout(): WorkflowHarness {
  const harness = new WorkflowHarness()
    .handler('t/upper', compute(['text'], ['text'], (v) => ({ text: String(v['text']).toUpperCase() })))
    .handler('t/exclaim', compute(['text'], ['text'], (v) => ({ text: `${String(v['text'])}!` })));
  /*
   *   shout:  $request.text ──▶ upper ──▶ exclaim ──▶ text
   */
  harness.register(
    workflow('shout')
      .input('text', { type: 'string' })
      .handler('upper', 't/upper', { text: '$request.text' })
      .handler('exclaim', 't/exclaim', { text: 'upper.text' })
      .output('text', 'exclaim.text'),
  );
  return harness;
}

describe('sub-workflows', () => {
  /*
   *   $request.name ──▶ greet (workflow: shout) ──▶ out
   */
  it('runs a registered workflow with the node’s inputs and gives its outputs', async () => {
    const harness = withShout();
    const plan = harness.plan(workflow('outer').input('name', { type: 'string' }).node('greet', { workflow: 'shout', inputs: { text: '$request.name' } }).output('out', 'greet.text'));
    expect((await harness.run(plan, { name: 'ada' })).outputs).toEqual({ out: 'ADA!' });
  });

  /*
   *   { value: [a, b] } ──▶ each (workflow: shout, forEach)
   */
  it('fans a sub-workflow out with forEach', async () => {
    const harness = withShout();
    const plan = harness.plan(workflow('outer').node('each', { workflow: 'shout', forEach: { value: ['a', 'b'] }, inputs: { text: '$item' } }).output('out', 'each.text'));
    expect((await harness.run(plan)).outputs).toEqual({ out: ['A!', 'B!'] });
  });

  /*
   *   greet (workflow: shout, unregistered after validation) ──▶ out
   */
  it('fails the node when the workflow is no longer registered', async () => {
    const harness = withShout();
    const plan = harness.plan(workflow('outer').node('greet', { workflow: 'shout', inputs: { text: { value: 'x' } } }).output('out', 'greet.text'));
    harness.unregister('shout');
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `outer` node `greet` (workflow shout) failed: workflow `shout` is not registered',
      details: { causeCode: 'SLUICE_WORKFLOW_NOT_FOUND' },
    });
  });

  /*
   *   greet (workflow: shout, text: 42) ──▶ out        the sub-workflow checks its inputs
   */
  it('checks the inputs it passes against the sub-workflow’s', async () => {
    const harness = withShout();
    const plan = harness.plan(workflow('outer').node('greet', { workflow: 'shout', inputs: { text: { value: 42 } } }).output('out', 'greet.text'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `outer` node `greet` (workflow shout) failed: workflow `shout`: input `text` must be a string (got 42)',
      details: { causeCode: 'SLUICE_WORKFLOW_INPUT_INVALID' },
    });
  });

  /*
   *   greet (workflow: shout) ──▶ out        debug nests the sub-workflow's trace
   */
  it('nests the sub-workflow’s trace in a debug result', async () => {
    const harness = withShout();
    const plan = harness.plan(workflow('outer').node('greet', { workflow: 'shout', inputs: { text: { value: 'x' } } }).output('out', 'greet.text'));
    const result = await harness.run(plan, {}, { debug: true });
    expect(result.debug?.nodes['greet']?.workflow).toMatchObject({
      workflow: 'shout',
      nodes: { upper: { status: 'ok', attempts: 1 }, exclaim: { status: 'ok', attempts: 1 } },
      skipped: [],
    });
  });

  /*
   *   level-0 ──▶ level-1 ──▶ … ──▶ level-8 ──▶ level-9 (t/pass)        each a workflow node, 2 attempts
   *                                          ✗ nine deep: stopped, and no level tries again
   *   (validated by a catalog that does not say what registered workflows call, so only the run can tell)
   */
  it('stops sub-workflows nested past the depth limit without retrying at any level', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['x'], ['x'], (v) => ({ x: v['x'] })));
    harness.register(workflow('level-9').input('x').handler('call', 't/pass', { x: '$request.x' }).output('x', 'call.x'));
    let top = harness.register(workflow('level-8').input('x').node('call', { workflow: 'level-9', inputs: { x: '$request.x' } }).output('x', 'call.x'));
    for (let level = 7; level >= 0; level--) {
      top = harness.registerUnchained(
        workflow(`level-${level}`)
          .input('x')
          .node('call', { workflow: `level-${level + 1}`, inputs: { x: '$request.x' }, retry: { attempts: 2 } })
          .output('x', 'call.x'),
      );
    }
    let runs = 0;
    const quiet = { traceContext: undefined, attempt: () => undefined, calls: () => undefined, ended: () => undefined };
    const observer: WorkflowObserver = {
      runStarted: () => {
        runs += 1;
        return { node: () => quiet, ended: () => undefined };
      },
    };
    const failure = await harness.run(top, { x: 1 }, { observer }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure).toMatchObject({ code: 'SLUICE_WORKFLOW_NODE_FAILED', details: { causeCode: 'SLUICE_WORKFLOW_NODE_FAILED' } });
    expect(failure?.message.startsWith('workflow `level-0` node `call` (workflow level-1) failed: workflow `level-1` node `call` (workflow level-2) failed: ')).toBe(true);
    expect(failure?.message.endsWith('failed: sub-workflows nest more than 8 levels deep; make the chain of workflow nodes shorter')).toBe(true);
    expect(runs).toBe(9);
  });

  /*
   *   level-0 ──▶ level-1 ──▶ … ──▶ level-8 (t/pass)        as deep as validation accepts: it runs
   *   top ──▶ level-0                                        one level more: refused when registered
   */
  it('runs the deepest chain validation accepts, and validation refuses one level more', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['x'], ['x'], (v) => ({ x: v['x'] })));
    let top = harness.register(workflow('level-8').input('x').handler('call', 't/pass', { x: '$request.x' }).output('x', 'call.x'));
    for (let level = 7; level >= 0; level--) {
      top = harness.register(workflow(`level-${level}`).input('x').node('call', { workflow: `level-${level + 1}`, inputs: { x: '$request.x' } }).output('x', 'call.x'));
    }
    expect((await harness.run(top, { x: 1 })).outputs).toEqual({ x: 1 });
    expect(() => harness.register(workflow('top').input('x').node('call', { workflow: 'level-0', inputs: { x: '$request.x' } }).output('x', 'call.x'))).toThrow(
      expect.objectContaining({ code: 'SLUICE_WORKFLOW_INVALID' }),
    );
  });

  /*
   *   outer: call (workflow: inner, 3 attempts) ──▶ out
   *   inner: check (refuses its data) ──▶ out        bad data stays bad: the outer node does not try again
   */
  it('refuses the client’s data with the refusal’s own code when a sub-workflow refused it', async () => {
    const harness = new WorkflowHarness().handler('t/refuse', {
      inputs: ['x'],
      outputs: { out: {} },
      run: () => Promise.reject(new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', 'shape [2] does not fit [3]')),
    });
    harness.register(workflow('inner').input('x').handler('check', 't/refuse', { x: '$request.x' }).output('out', 'check.out'));
    const plan = harness.plan(workflow('outer').input('x').node('call', { workflow: 'inner', inputs: { x: '$request.x' } }).output('out', 'call.out'));
    await expect(harness.run(plan, { x: [1, 2] })).rejects.toMatchObject({
      code: 'SLUICE_TENSOR_SHAPE_MISMATCH',
      message: 'workflow `outer` node `call` (workflow inner): workflow `inner` node `check` (handler t/refuse): shape [2] does not fit [3]',
    });
  });

  it('does not retry a sub-workflow that failed on an error another attempt cannot fix', async () => {
    let calls = 0;
    const harness = new WorkflowHarness().handler('t/refuse', {
      inputs: [],
      outputs: { out: {} },
      run: () => {
        calls += 1;
        return Promise.reject(new SluiceError('SLUICE_TENSOR_SHAPE_MISMATCH', 'shape [2] does not fit [3]'));
      },
    });
    harness.register(workflow('inner').handler('check', 't/refuse').output('out', 'check.out'));
    const plan = harness.plan(workflow('outer').node('call', { workflow: 'inner', retry: { attempts: 3 } }).output('out', 'call.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `outer` node `call` (workflow inner) failed: workflow `inner` node `check` (handler t/refuse) failed: shape [2] does not fit [3]',
    });
    expect(calls).toBe(1);
  });
});
