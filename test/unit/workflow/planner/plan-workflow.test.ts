import { describe, expect, it } from '@jest/globals';
import { isSluiceError } from '../../../../src/sdk/errors/index.js';
import { planWorkflow, type WorkflowDefinition, type WorkflowPlan } from '../../../../src/workflow/index.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

const harness = new WorkflowHarness()
  .handler('t/one', compute(['in'], ['out'], (v) => ({ out: v['in'] })))
  .handler('t/two', compute(['a', 'b'], ['out'], (v) => ({ out: [v['a'], v['b']] })));

describe('planWorkflow', () => {
  /*
   *        ┌──▶ left ──┐
   *   top ─┤           ├──▶ join
   *        └──▶ right ─┘
   */
  function diamond(): WorkflowPlan {
    return harness.plan(
      workflow('diamond')
        .input('x')
        .handler('top', 't/one', { in: '$request.x' })
        .handler('left', 't/one', { in: 'top.out' })
        .handler('right', 't/one', { in: 'top.out' })
        .handler('join', 't/two', { a: 'left.out', b: 'right.out' })
        .output('out', 'join.out'),
    );
  }

  it('records every node’s dependencies and dependents', () => {
    const plan = diamond();
    expect(Object.fromEntries(Object.entries(plan.nodes).map(([id, n]) => [id, [n.dependencies, n.dependents]]))).toEqual({
      top: [[], ['left', 'right']],
      left: [['top'], ['join']],
      right: [['top'], ['join']],
      join: [['left', 'right'], []],
    });
  });

  it('orders the nodes topologically', () => {
    expect(diamond().order).toEqual(['top', 'left', 'right', 'join']);
  });

  it('groups parallel work into stages', () => {
    const plan = diamond();
    expect(plan.stages).toEqual([['top'], ['left', 'right'], ['join']]);
    expect(plan.nodes['right']?.stage).toBe(1);
  });

  it('is deeply frozen', () => {
    const plan = diamond();
    expect(Object.isFrozen(plan)).toBe(true);
    expect(Object.isFrozen(plan.nodes['join']?.dependencies)).toBe(true);
    expect(Object.isFrozen(plan.workflow.nodes['join']?.inputs['a']?.alternatives)).toBe(true);
    expect(() => {
      (plan.order as string[]).push('extra');
    }).toThrow(TypeError);
  });

  /*
   *   gate ··▶ guarded        (··▶ read by `when` only)
   */
  it('counts what a `when` reads as a dependency', () => {
    const plan = harness.plan(
      workflow('guarded')
        .input('x')
        .handler('gate', 't/one', { in: '$request.x' })
        .handler('guarded', 't/one', { in: '$request.x' }, { when: 'nodes.gate.out == 1' })
        .output('out', 'guarded.out ?? gate.out'),
    );
    expect(plan.nodes['guarded']?.dependencies).toEqual(['gate']);
    expect(plan.nodes['guarded']?.dataDependencies).toEqual([]);
    expect(plan.stages).toEqual([['gate'], ['guarded']]);
  });

  /*
   *   a ──▶ b ──▶ a        (never validated)
   */
  it('refuses a definition with a cycle as an internal error', () => {
    const valid = harness.plan(workflow('w').handler('a', 't/one', { in: { value: 1 } }).handler('b', 't/one', { in: 'a.out' }).output('out', 'b.out'));
    const a = valid.workflow.nodes['a'];
    if (a === undefined) throw new Error('no node a');
    const cyclic: WorkflowDefinition = {
      ...valid.workflow,
      nodes: { ...valid.workflow.nodes, a: { ...a, inputs: { in: { alternatives: [{ kind: 'node', node: 'b', output: 'out' }], at: '', offsets: [0] } } } },
    };
    let thrown: unknown;
    try {
      planWorkflow(cyclic);
    } catch (error) {
      thrown = error;
    }
    expect(isSluiceError(thrown, 'SLUICE_INTERNAL')).toBe(true);
    expect((thrown as Error).message).toBe('workflow w has a cycle; plan only workflows that passed validation');
  });
});
