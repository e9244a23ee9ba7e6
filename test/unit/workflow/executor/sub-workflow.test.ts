import { describe, expect, it } from '@jest/globals';
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
   *   loop-a (workflow: loop-b) ──▶ loop-b (workflow: loop-a) ──▶ …        stopped at the depth limit
   */
  it('stops sub-workflows that call each other without end', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['x'], ['x'], (v) => ({ x: v['x'] })));
    const loop = (name: string, calls: string): ReturnType<typeof workflow> =>
      workflow(name).input('x').node('call', { workflow: calls, inputs: { x: '$request.x' } }).output('x', 'call.x');
    harness.register(workflow('loop-b').input('x').handler('call', 't/pass', { x: '$request.x' }).output('x', 'call.x'));
    const a = harness.register(loop('loop-a', 'loop-b'));
    harness.register(loop('loop-b', 'loop-a'));
    const failure = await harness.run(a, { x: 1 }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure).toMatchObject({ code: 'SLUICE_WORKFLOW_NODE_FAILED' });
    expect(failure?.message.startsWith('workflow `loop-a` node `call` (workflow loop-b) failed: workflow `loop-b` node `call` (workflow loop-a) failed: ')).toBe(true);
    expect(failure?.message.endsWith('failed: sub-workflows nest more than 8 levels deep')).toBe(true);
  });
});
