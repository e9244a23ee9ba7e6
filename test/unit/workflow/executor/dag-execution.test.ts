import { describe, expect, it } from '@jest/globals';
import { RequestBudget } from '../../../../src/budget/request-budget.js';
import { loadWorkflow } from '../../../../src/workflow/index.js';
import { Gate } from '../support/gate.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

function increment(harness: WorkflowHarness): WorkflowHarness {
  return harness.handler('t/inc', compute(['in'], ['out'], (v) => ({ out: (v['in'] as number) + 1 })));
}

describe('executing a DAG', () => {
  /*
   *   $request.x ──▶ a ──▶ b ──▶ c ──▶ out
   */
  it('runs a chain in order, each node reading the one before', async () => {
    const harness = increment(new WorkflowHarness());
    const plan = harness.plan(
      workflow('chain').input('x').handler('a', 't/inc', { in: '$request.x' }).handler('b', 't/inc', { in: 'a.out' }).handler('c', 't/inc', { in: 'b.out' }).output('out', 'c.out'),
    );
    expect(await harness.run(plan, { x: 1 })).toEqual({ outputs: { out: 4 } });
    expect(harness.started).toEqual(['a', 'b', 'c']);
  });

  /*
   *              ┌──▶ left ──┐
   *   $request ──┤           ├──▶ join ──▶ out
   *              └──▶ right ─┘
   *
   *   left waits until right has started, and right until left has: only concurrent branches finish.
   */
  it('runs independent branches at the same time', async () => {
    const leftStarted = new Gate();
    const rightStarted = new Gate();
    const harness = new WorkflowHarness()
      .handler('t/left', {
        inputs: ['in'],
        outputs: { out: {} },
        run: async (v) => {
          leftStarted.open();
          await rightStarted.opened;
          return { out: `L${String(v['in'])}` };
        },
      })
      .handler('t/right', {
        inputs: ['in'],
        outputs: { out: {} },
        run: async (v) => {
          rightStarted.open();
          await leftStarted.opened;
          return { out: `R${String(v['in'])}` };
        },
      })
      .handler('t/join', compute(['a', 'b'], ['out'], (v) => ({ out: `${String(v['a'])}+${String(v['b'])}` })));
    const plan = harness.plan(
      workflow('diamond')
        .input('x')
        .handler('left', 't/left', { in: '$request.x' })
        .handler('right', 't/right', { in: '$request.x' })
        .handler('join', 't/join', { a: 'left.out', b: 'right.out' })
        .output('out', 'join.out'),
    );
    expect(await harness.run(plan, { x: 1 }, { budget: RequestBudget.of({ timeoutMs: 5000 }) })).toEqual({ outputs: { out: 'L1+R1' } });
  });

  /*
   *   a ──▶ c                c opens the gate b is held at: c must start while b still runs,
   *   b ──▶ d                so nodes do not wait for a whole stage to finish.
   */
  it('starts a node as soon as its own inputs are ready', async () => {
    const cStarted = new Gate();
    const harness = new WorkflowHarness()
      .handler('t/pass', compute(['in'], ['out'], (v) => ({ out: v['in'] })))
      .handler('t/held', {
        inputs: ['in'],
        outputs: { out: {} },
        run: async (v) => {
          await cStarted.opened;
          return { out: v['in'] };
        },
      })
      .handler('t/opener', {
        inputs: ['in'],
        outputs: { out: {} },
        run: (v) => {
          cStarted.open();
          return Promise.resolve({ out: v['in'] });
        },
      });
    const plan = harness.plan(
      workflow('eager')
        .handler('a', 't/pass', { in: { value: 'a' } })
        .handler('b', 't/held', { in: { value: 'b' } })
        .handler('c', 't/opener', { in: 'a.out' })
        .handler('d', 't/pass', { in: 'b.out' })
        .output('c', 'c.out')
        .output('d', 'd.out'),
    );
    expect(await harness.run(plan, {}, { budget: RequestBudget.of({ timeoutMs: 5000 }) })).toEqual({ outputs: { c: 'a', d: 'b' } });
    expect(harness.started).toEqual(['a', 'b', 'c', 'd']);
  });

  /*
   *   { value: [1, 2] } ──▶ a ──▶ out        $request.x ──▶ echo
   */
  it('gives literals and request inputs to nodes and outputs', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['in'], ['out'], (v) => ({ out: v['in'] })));
    const plan = harness.plan(workflow('literal').input('x').handler('a', 't/pass', { in: { value: [1, 2] } }).output('out', 'a.out').output('echo', '$request.x'));
    expect(await harness.run(plan, { x: 'hi' })).toEqual({ outputs: { out: [1, 2], echo: 'hi' } });
  });

  /*
   *   a ──▶ b        a and b each run once, though b reads a twice
   *   ║    ▲
   *   ╚════╝
   */
  it('runs each node once however often it is read', async () => {
    const harness = new WorkflowHarness()
      .handler('t/pass', compute(['in'], ['out'], (v) => ({ out: v['in'] })))
      .handler('t/join', compute(['a', 'b'], ['out'], (v) => ({ out: [v['a'], v['b']] })));
    const plan = harness.plan(
      workflow('twice').handler('a', 't/pass', { in: { value: 1 } }).handler('b', 't/join', { a: 'a.out', b: 'a.out' }).output('out', 'b.out').output('raw', 'a.out'),
    );
    expect(await harness.run(plan)).toEqual({ outputs: { out: [1, 1], raw: 1 } });
    expect(harness.started).toEqual(['a', 'b']);
  });

  /*
   *   $request.__proto__ ──▶ __proto__ ──▶ __proto__ (output)        names every object has are names too
   */
  it('runs a node and answers an output named `__proto__`', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['in'], ['out'], (v) => ({ out: v['in'] })));
    const text =
      'apiVersion: sluice/v1\nkind: Workflow\nmetadata: { name: proto }\ninputs: { __proto__: { type: string } }\nnodes:\n  __proto__: { handler: t/pass, inputs: { in: $request.__proto__ } }\noutputs: { __proto__: __proto__.out }\n';
    const plan = loadWorkflow(text, { file: 'proto.yaml', catalog: harness.catalog() }).plan;
    const { outputs } = await harness.run(plan, JSON.parse('{"__proto__": "hi"}') as Record<string, unknown>);
    expect(Object.entries(outputs)).toEqual([['__proto__', 'hi']]);
  });

  /*
   *   $request.constructor (optional, left out) ?? { value: fallback } ──▶ a ──▶ out
   */
  it('takes an optional input named `constructor` that the request leaves out as absent', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['in'], ['out'], (v) => ({ out: v['in'] })));
    const plan = harness.plan(
      workflow('ctor').input('constructor', { type: 'string', optional: true }).handler('a', 't/pass', { in: '$request.constructor ?? b.out' }).handler('b', 't/pass', { in: { value: 'fallback' } }).output('out', 'a.out'),
    );
    expect((await harness.run(plan)).outputs).toEqual({ out: 'fallback' });
  });

  /*
   *   n0, n1, … n999 (in parallel) ──▶ 10 000 outputs, each reading one of them
   */
  it('ends a run of a thousand nodes and ten thousand outputs within seconds', async () => {
    const harness = new WorkflowHarness().handler('t/pass', compute(['in'], ['out'], (v) => ({ out: v['in'] })));
    const builder = workflow('wide');
    for (let i = 0; i < 1000; i++) builder.handler(`n${i}`, 't/pass', { in: { value: i } });
    for (let i = 0; i < 10_000; i++) builder.output(`o${i}`, `n${999 - (i % 1000)}.out`);
    const plan = harness.plan(builder);
    const started = performance.now();
    const { outputs } = await harness.run(plan);
    expect([Object.keys(outputs).length, outputs['o0'], performance.now() - started < 2000]).toEqual([10_000, 999, true]);
  }, 30_000);

  /*
   *   a ──▶ (handler context)
   */
  it('gives handlers the workflow and node names, a logger and their config', async () => {
    const seen: unknown[] = [];
    const harness = new WorkflowHarness().handler('t/ctx', {
      inputs: [],
      outputs: { out: {} },
      run: (_v, context) => {
        seen.push([context.workflow, context.node, context.config, context.signal.aborted]);
        context.logger.info('hello');
        return Promise.resolve({ out: 1 });
      },
    });
    const plan = harness.plan(workflow('ctx').handler('a', 't/ctx').output('out', 'a.out'));
    await harness.run(plan);
    expect(seen).toEqual([['ctx', 'a', {}, false]]);
    expect(harness.logger.lines).toEqual([{ level: 'info', message: 'hello', fields: { workflow: 'ctx', node: 'a' } }]);
  });
});
