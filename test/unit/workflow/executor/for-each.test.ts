import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import type { Tensor } from '../../../../src/sdk/tensor/index.js';
import { Gate, never } from '../support/gate.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

const LIST = { inputs: [], outputs: { items: { list: true } } };

function lister(items: unknown): WorkflowHarness {
  return new WorkflowHarness().handler('t/list', { ...LIST, run: () => Promise.resolve({ items }) });
}

describe('forEach', () => {
  /*
   *   list ──▶ each (forEach: list.items) ──▶ out
   *
   *   call i waits until call i+1 has finished, so they finish last to first.
   */
  it('collects the calls’ outputs in list order, not in the order they finish', async () => {
    const finished = [new Gate(), new Gate(), new Gate(), new Gate()];
    finished[3]?.open();
    const harness = lister([0, 1, 2]).handler('t/slow', {
      inputs: ['i'],
      outputs: { out: {} },
      run: async (v) => {
        const i = v['i'] as number;
        await finished[i + 1]?.opened;
        finished[i]?.open();
        return { out: `item${i}` };
      },
    });
    const plan = harness.plan(workflow('order').handler('list', 't/list').handler('each', 't/slow', { i: '$item' }, { forEach: 'list.items' }).output('out', 'each.out'));
    expect((await harness.run(plan, {}, { budget: RequestBudget.of({ timeoutMs: 5000 }) })).outputs).toEqual({ out: ['item0', 'item1', 'item2'] });
  });

  /*
   *   $request.rows ──▶ score (model, forEach) ──▶ out
   *
   *   the model answers only once all three calls are in flight: they reach the model caller together.
   */
  it('makes a forEach model node’s calls concurrently, so the scheduler can batch them', async () => {
    const allIn = new Gate();
    let inFlight = 0;
    const harness = new WorkflowHarness().model(
      { name: 'scorer', version: '1', inputs: [{ name: 'x', datatype: 'FP32', shape: [-1, 2] }], outputs: [{ name: 'y', datatype: 'FP32', shape: [-1, 1] }] },
      async (call) => {
        inFlight += 1;
        if (inFlight === 3) allIn.open();
        await allIn.opened;
        const x = call.inputs['x']?.data as Float32Array;
        const y: Tensor = { name: 'y', datatype: 'FP32', shape: [1, 1], data: new Float32Array([(x[0] ?? 0) + (x[1] ?? 0)]) };
        return { y };
      },
    );
    const plan = harness.plan(
      workflow('batch')
        .input('rows', { type: 'list' })
        .node('score', { model: 'scorer', forEach: '$request.rows', inputs: { x: '$item' } })
        .output('out', 'score.y'),
    );
    const result = await harness.run(plan, { rows: [[1, 2], [3, 4], [5, 6]] }, { budget: RequestBudget.of({ timeoutMs: 5000 }) });
    expect((result.outputs['out'] as Tensor[]).map((t) => Array.from(t.data as Float32Array))).toEqual([[3], [7], [11]]);
    expect(harness.modelCalls.map((call) => call.inputs['x']?.shape)).toEqual([[1, 2], [1, 2], [1, 2]]);
  });

  /*
   *   list (5 items) ──▶ each (forEach, concurrency: 2)
   */
  it('keeps at most `concurrency` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const harness = lister([1, 2, 3, 4, 5]).handler('t/count', {
      inputs: ['i'],
      outputs: { out: {} },
      run: async (v) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        return { out: v['i'] };
      },
    });
    const plan = harness.plan(workflow('limit').handler('list', 't/list').handler('each', 't/count', { i: '$item' }, { forEach: 'list.items', concurrency: 2 }).output('out', 'each.out'));
    expect((await harness.run(plan)).outputs).toEqual({ out: [1, 2, 3, 4, 5] });
    expect(most).toBe(2);
  });

  /*
   *   list ([]) ──▶ each (forEach) ──▶ out = []
   */
  it('makes no call for an empty list and gives empty lists', async () => {
    const harness = lister([]).handler('t/pass', compute(['i'], ['out'], (v) => ({ out: v['i'] })));
    const plan = harness.plan(workflow('empty').handler('list', 't/list').handler('each', 't/pass', { i: '$item' }, { forEach: 'list.items' }).output('out', 'each.out'));
    const result = await harness.run(plan, {}, { debug: true });
    expect(result.outputs).toEqual({ out: [] });
    expect(result.debug?.nodes['each']).toMatchObject({ status: 'ok', attempts: 0, calls: 0 });
  });

  /*
   *   { value: [a, b] } ──▶ each (forEach, other input: $request.suffix)
   */
  it('binds $item per call and the other inputs as usual', async () => {
    const harness = new WorkflowHarness().handler('t/cat', compute(['i', 's'], ['out'], (v) => ({ out: `${String(v['i'])}${String(v['s'])}` })));
    const plan = harness.plan(
      workflow('bind').input('suffix', { type: 'string' }).handler('each', 't/cat', { i: '$item', s: '$request.suffix' }, { forEach: { value: ['a', 'b'] } }).output('out', 'each.out'),
    );
    expect((await harness.run(plan, { suffix: '!' })).outputs).toEqual({ out: ['a!', 'b!'] });
  });

  /*
   *   $request.items (any) ──▶ each (forEach)        the request sends no list: the node fails
   */
  it('fails the node when the value it fans out over is not a list', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['i'], ['out'], (v) => ({ out: v['i'] })));
    const plan = harness.plan(workflow('notlist').input('items').handler('each', 't/pass', { i: '$item' }, { forEach: '$request.items' }).output('out', 'each.out'));
    await expect(harness.run(plan, { items: 3 })).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `notlist` node `each` (handler t/pass) failed: `forEach` got 3, not a list',
    });
  });

  /*
   *   list ([bad, slow]) ──▶ each (forEach)        bad fails for good: slow is cancelled
   */
  it('fails the node at the first call that fails for good, cancelling the others', async () => {
    let slowSignal: AbortSignal | undefined;
    const harness = lister(['slow', 'bad']).handler('t/mixed', {
      inputs: ['i'],
      outputs: { out: {} },
      run: (v, context) => {
        if (v['i'] === 'bad') return Promise.reject(new Error('cannot read line'));
        slowSignal = context.signal;
        return never();
      },
    });
    const plan = harness.plan(workflow('fail').handler('list', 't/list').handler('each', 't/mixed', { i: '$item' }, { forEach: 'list.items' }).output('out', 'each.out'));
    await expect(harness.run(plan)).rejects.toMatchObject({
      code: 'SLUICE_WORKFLOW_NODE_FAILED',
      message: 'workflow `fail` node `each` (handler t/mixed) failed: cannot read line',
    });
    expect(slowSignal?.aborted).toBe(true);
  });

  /*
   *   list ──▶ each (forEach) ──▶ join (reads each.out as one list)
   */
  it('hands the collected list to a node downstream', async () => {
    const harness = lister(['a', 'b'])
      .handler('t/upper', compute(['i'], ['out'], (v) => ({ out: String(v['i']).toUpperCase() })))
      .handler('t/join', compute(['parts'], ['out'], (v) => ({ out: (v['parts'] as string[]).join('') })));
    const plan = harness.plan(
      workflow('collect')
        .handler('list', 't/list')
        .handler('each', 't/upper', { i: '$item' }, { forEach: 'list.items' })
        .handler('join', 't/join', { parts: 'each.out' })
        .output('out', 'join.out'),
    );
    expect((await harness.run(plan)).outputs).toEqual({ out: 'AB' });
  });

  /*
   *   list ──▶ each (forEach) ──▶ out
   *
   *   call 1 finishes before call 0.
   */
  it('reports each call as it finishes, before the run ends', async () => {
    const first = new Gate();
    const progress: unknown[] = [];
    const harness = lister([0, 1]).handler('t/slow', {
      inputs: ['i'],
      outputs: { out: {} },
      run: async (v) => {
        if (v['i'] === 0) await first.opened;
        else first.open();
        return { out: `item${String(v['i'])}` };
      },
    });
    const plan = harness.plan(workflow('progress').handler('list', 't/list').handler('each', 't/slow', { i: '$item' }, { forEach: 'list.items' }).output('out', 'each.out'));
    const result = await harness.run(plan, {}, { onProgress: (p) => progress.push(p) });
    expect(progress).toEqual([
      { node: 'each', index: 1, count: 2, outputs: { out: 'item1' } },
      { node: 'each', index: 0, count: 2, outputs: { out: 'item0' } },
    ]);
    expect(result.outputs).toEqual({ out: ['item0', 'item1'] });
  });
});
