import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import { never } from '../support/gate.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : '-';
}

function harness(): WorkflowHarness {
  return new WorkflowHarness()
    .handler('t/tag', compute(['in'], ['out'], (v) => ({ out: `tag(${String(v['in'])})` })))
    .handler('t/join', compute(['a', 'b'], ['out'], (v) => ({ out: `${shown(v['a'])}|${shown(v['b'])}` })));
}

describe('skipping', () => {
  /*
   *              ┌──▶ big    (when request.size > 10)  ──┐
   *   $request ──┤                                       ├──▶ out = big.out ?? small.out
   *              └──▶ small  (when request.size <= 10) ──┘
   */
  it.each([
    [50, 'tag(big)', ['small']],
    [5, 'tag(small)', ['big']],
  ])('routes by `when` (size %i gives %s)', async (size, out, skipped) => {
    const h = harness();
    const plan = h.plan(
      workflow('route')
        .input('size', { type: 'number' })
        .handler('big', 't/tag', { in: { value: 'big' } }, { when: 'request.size > 10' })
        .handler('small', 't/tag', { in: { value: 'small' } }, { when: 'request.size <= 10' })
        .output('out', 'big.out ?? small.out'),
    );
    const result = await h.run(plan, { size }, { debug: true });
    expect(result.outputs).toEqual({ out });
    expect(result.debug?.skipped).toEqual(skipped);
  });

  /*
   *   [a] ──▶ b ──▶ c ──▶ out = c.out ?? $request.x        [a]: `when` is false
   */
  it('skips the nodes that depend only on a skipped node', async () => {
    const h = harness();
    const plan = h.plan(
      workflow('chain')
        .input('x')
        .handler('a', 't/tag', { in: '$request.x' }, { when: 'false' })
        .handler('b', 't/tag', { in: 'a.out' })
        .handler('c', 't/tag', { in: 'b.out' })
        .output('out', 'c.out ?? $request.x'),
    );
    const result = await h.run(plan, { x: 'raw' }, { debug: true });
    expect(result.outputs).toEqual({ out: 'raw' });
    expect(result.debug?.skipped).toEqual(['a', 'b', 'c']);
    expect(result.debug?.nodes['b']).toEqual({ status: 'skipped', attempts: 0, reason: 'every node it takes values from was skipped' });
    expect(h.started).toEqual([]);
  });

  /*
   *   [a] ──┐
   *         ├──▶ join ──▶ out        join runs: b ran; its input from a is absent
   *    b ───┘
   */
  it('runs a node that still has a dependency that ran, without the skipped input', async () => {
    const h = harness();
    const plan = h.plan(
      workflow('mixed')
        .handler('a', 't/tag', { in: { value: 'a' } }, { when: 'false' })
        .handler('b', 't/tag', { in: { value: 'b' } })
        .handler('join', 't/join', { a: 'a.out', b: 'b.out' })
        .output('out', 'join.out'),
    );
    expect((await h.run(plan)).outputs).toEqual({ out: '-|tag(b)' });
  });

  /*
   *   [fast] ──┐
   *            ├──▶ use (in: fast.out ?? slow.out)
   *    slow ───┘
   */
  it('takes the first alternative that was not skipped in a node input', async () => {
    const h = harness();
    const plan = h.plan(
      workflow('merge')
        .handler('fast', 't/tag', { in: { value: 'fast' } }, { when: 'false' })
        .handler('slow', 't/tag', { in: { value: 'slow' } })
        .handler('use', 't/tag', { in: 'fast.out ?? slow.out' })
        .output('out', 'use.out'),
    );
    expect((await h.run(plan)).outputs).toEqual({ out: 'tag(tag(slow))' });
  });

  /*
   *   [a] ──▶ out = a.out        every alternative skipped: the output is absent
   */
  it('leaves out an output whose every source was skipped', async () => {
    const h = harness();
    const plan = h.plan(workflow('none').handler('a', 't/tag', { in: { value: 'a' } }, { when: 'false' }).output('out', 'a.out'));
    expect(await h.run(plan)).toEqual({ outputs: {} });
  });

  /*
   *   score ··▶ accept (when nodes.score.probs.data[0] > 0.5)
   *
   *   `when` sees a tensor as { datatype, shape, data }.
   */
  it.each([
    [0.9, { out: 'tag(accepted)' }],
    [0.1, {}],
  ])('lets `when` read an upstream tensor (score %f)', async (score, outputs) => {
    const h = harness().handler('t/score', {
      inputs: [],
      outputs: { probs: {} },
      run: () => Promise.resolve({ probs: { name: 'probs', datatype: 'FP32', shape: [1, 2], data: new Float32Array([score, 1 - score]) } }),
    });
    const plan = h.plan(
      workflow('gate')
        .handler('score', 't/score')
        .handler('accept', 't/tag', { in: { value: 'accepted' } }, { when: 'nodes.score.probs.data[0] > 0.5 && nodes.score.probs.shape[1] == 2' })
        .output('out', 'accept.out'),
    );
    expect((await h.run(plan)).outputs).toEqual(outputs);
  });

  /*
   *   [maybe] ··▶ check (when !has(nodes.maybe))        a skipped node is absent from `nodes`;
   *                                                     a node only `when` reads does not skip check
   */
  it('hides skipped nodes from `when`', async () => {
    const h = harness();
    const plan = h.plan(
      workflow('has')
        .handler('maybe', 't/tag', { in: { value: 'm' } }, { when: 'false' })
        .handler('check', 't/tag', { in: { value: 'fallback' } }, { when: '!has(nodes.maybe)' })
        .output('out', 'maybe.out ?? check.out'),
    );
    expect((await h.run(plan)).outputs).toEqual({ out: 'tag(fallback)' });
  });

  /*
   *   [a] ──┐
   *         ├──▶ each (forEach: a.items, in: b.out)        b ran, but there is no list: skipped
   *    b ───┘
   */
  it('skips a forEach node whose list has no value', async () => {
    const h = harness()
      .handler('t/list', { inputs: [], outputs: { items: { list: true } }, run: () => Promise.resolve({ items: ['x'] }) })
      .handler('t/pair', compute(['item', 'in'], ['out'], (v) => ({ out: [v['item'], v['in']] })));
    const plan = h.plan(
      workflow('nolist')
        .handler('a', 't/list', {}, { when: 'false' })
        .handler('b', 't/tag', { in: { value: 'b' } })
        .handler('each', 't/pair', { item: '$item', in: 'b.out' }, { forEach: 'a.items' })
        .output('out', 'each.out ?? b.out'),
    );
    const result = await h.run(plan, {}, { debug: true });
    expect(result.outputs).toEqual({ out: 'tag(b)' });
    expect(result.debug?.nodes['each']).toEqual({ status: 'skipped', attempts: 0, reason: 'its `forEach` list has no value' });
  });

  /*
   *   first ──▶ out = first.out ?? second.out
   *   second (never answers)                      the output is known once first is done
   */
  it('ends the run as soon as every output is known, cancelling what still runs', async () => {
    let secondSignal: AbortSignal | undefined;
    const h = harness().handler('t/hang', {
      inputs: [],
      outputs: { out: {} },
      run: (_v, context) => {
        secondSignal = context.signal;
        return never();
      },
    });
    const plan = h.plan(workflow('early').handler('first', 't/tag', { in: { value: 'first' } }).handler('second', 't/hang').output('out', 'first.out ?? second.out'));
    const result = await h.run(plan, {}, { debug: true });
    expect(result.outputs).toEqual({ out: 'tag(first)' });
    expect(secondSignal?.aborted).toBe(true);
    expect(result.debug?.nodes['second']?.status).toBe('cancelled');
  });

  /*
   *   slow (never answers) ──▶ out = slow.out ?? fast.out
   *   fast                                               the first alternative decides: wait for slow
   */
  it('waits for an earlier alternative even when a later one is ready', async () => {
    const h = harness().handler('t/hang', { inputs: [], outputs: { out: {} }, run: () => never() });
    const plan = h.plan(workflow('order').handler('slow', 't/hang').handler('fast', 't/tag', { in: { value: 'f' } }).output('out', 'slow.out ?? fast.out'));
    await expect(h.run(plan, {}, { budget: RequestBudget.of({ timeoutMs: 30 }) })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_DEADLINE_EXCEEDED',
      message: 'workflow `order` did not finish within 30 ms; still running: slow',
    });
  });

  /*
   *   a ··▶ b (when nodes.a.out.missing == 1)        the expression fails: the node fails
   */
  it('fails a node whose `when` cannot be evaluated', async () => {
    const h = harness().handler('t/map', compute([], ['out'], () => ({ out: { present: 1 } })));
    const plan = h.plan(workflow('bad-when').handler('a', 't/map').handler('b', 't/tag', { in: 'a.out' }, { when: 'nodes.a.out.missing == 1' }).output('out', 'b.out'));
    await expect(h.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `bad-when` node `b` (handler t/tag) failed: `when` could not be evaluated: No such key: missing',
    });
  });

  /*
   *   $request.x ··▶ a (when request.x)        a `dyn` result must still be true or false
   */
  it('fails a node whose `when` gives something other than true or false', async () => {
    const h = harness();
    const plan = h.plan(workflow('dyn').input('x').handler('a', 't/tag', { in: '$request.x' }, { when: 'request.x' }).output('out', 'a.out'));
    await expect(h.run(plan, { x: 'yes' })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `dyn` node `a` (handler t/tag) failed: `when` gave "yes", not true or false',
    });
  });
});
