import { describe, expect, it } from '@jest/globals';
import { RecordingClock } from '../support/recording-clock.js';
import { compute, WorkflowHarness } from '../support/workflow-harness.js';
import { workflow } from '../support/workflow-builder.js';

function harness(): WorkflowHarness {
  return new WorkflowHarness()
    .handler('t/tag', compute(['in'], ['out'], (v) => ({ out: `tag(${String(v['in'])})` })))
    .handler('t/list', { inputs: [], outputs: { items: { list: true } }, run: () => Promise.resolve({ items: [1, 2, 3] }) });
}

describe('debug results', () => {
  /*
   *   a ──▶ b        [c] (when false)        list ──▶ each (forEach, 3 calls)
   */
  it('give every node’s status, start, duration and attempts, and the skipped nodes', async () => {
    const h = harness();
    const plan = h.plan(
      workflow('traced')
        .handler('a', 't/tag', { in: { value: 'a' } })
        .handler('b', 't/tag', { in: 'a.out' })
        .handler('c', 't/tag', { in: { value: 'c' } }, { when: 'false' })
        .handler('list', 't/list')
        .handler('each', 't/tag', { in: '$item' }, { forEach: 'list.items' })
        .output('b', 'b.out')
        .output('c', 'c.out ?? a.out')
        .output('each', 'each.out'),
    );
    const { debug } = await h.run(plan, {}, { debug: true });
    const timed = { startMs: expect.any(Number) as unknown, durationMs: expect.any(Number) as unknown };
    expect(debug).toEqual({
      workflow: 'traced',
      totalMs: expect.any(Number) as unknown,
      nodes: {
        a: { status: 'ok', attempts: 1, ...timed },
        b: { status: 'ok', attempts: 1, ...timed },
        c: { status: 'skipped', attempts: 0, reason: '`when` is false' },
        list: { status: 'ok', attempts: 1, ...timed },
        each: { status: 'ok', attempts: 3, calls: 3, ...timed },
      },
      skipped: ['c'],
    });
  });

  /*
   *   a ──▶ b        timings come from the clock: b starts after a has finished
   */
  it('measure from the start of the run with the run’s clock', async () => {
    const h = harness();
    const plan = h.plan(workflow('clocked').handler('a', 't/tag', { in: { value: 'a' } }).handler('b', 't/tag', { in: 'a.out' }).output('b', 'b.out'));
    const { debug } = await h.run(plan, {}, { debug: true, clock: new RecordingClock() });
    const a = debug?.nodes['a'];
    const b = debug?.nodes['b'];
    expect(a?.startMs).toBeGreaterThanOrEqual(0);
    expect((b?.startMs ?? 0) >= (a?.startMs ?? 0) + (a?.durationMs ?? 0)).toBe(true);
    expect(debug?.totalMs).toBeGreaterThanOrEqual((b?.startMs ?? 0) + (b?.durationMs ?? 0));
  });

  /*
   *   a ──▶ out
   */
  it('are left out unless asked for', async () => {
    const h = harness();
    const plan = h.plan(workflow('quiet').handler('a', 't/tag', { in: { value: 'a' } }).output('out', 'a.out'));
    expect(await h.run(plan)).toEqual({ outputs: { out: 'tag(a)' } });
  });
});
