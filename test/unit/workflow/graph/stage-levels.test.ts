import { describe, expect, it } from '@jest/globals';
import { stageLevels } from '../../../../src/workflow/graph/stage-levels.js';
import { topologicalOrder } from '../../../../src/workflow/graph/topological-order.js';
import { dag } from '../support/graph-builder.js';

function stagesOf(builder: ReturnType<typeof dag>): string[][] {
  const dependencies = builder.dependencies();
  return stageLevels(topologicalOrder(dependencies) ?? [], dependencies);
}

describe('stageLevels', () => {
  /*
   *        ┌──▶ b ──┐
   *   a ───┤        ├──▶ d
   *        └──▶ c ──┘
   */
  it('puts parallel branches in one stage', () => {
    expect(stagesOf(dag().node('a').node('b', 'a').node('c', 'a').node('d', 'b', 'c'))).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  /*
   *   a ──▶ b ──▶ c
   *   │           ▲
   *   └───────────┘
   */
  it('places a node after its latest dependency', () => {
    expect(stagesOf(dag().node('a').node('b', 'a').node('c', 'a', 'b'))).toEqual([['a'], ['b'], ['c']]);
  });

  /*
   *   a      b      c
   */
  it('puts independent nodes in the first stage', () => {
    expect(stagesOf(dag().node('a').node('b').node('c'))).toEqual([['a', 'b', 'c']]);
  });
});
