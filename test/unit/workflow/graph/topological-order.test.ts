import { describe, expect, it } from '@jest/globals';
import { topologicalOrder } from '../../../../src/workflow/graph/topological-order.js';
import { dag } from '../support/graph-builder.js';

describe('topologicalOrder', () => {
  /*
   *   a ──▶ b ──▶ c
   */
  it('orders a chain from its start', () => {
    expect(topologicalOrder(dag().node('c', 'b').node('b', 'a').dependencies())).toEqual(['a', 'b', 'c']);
  });

  /*
   *        ┌──▶ b ──┐
   *   a ───┤        ├──▶ d
   *        └──▶ c ──┘
   */
  it('puts a join after both branches of a diamond', () => {
    const order = topologicalOrder(dag().node('a').node('b', 'a').node('c', 'a').node('d', 'b', 'c').dependencies());
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  /*
   *   x      y ──▶ z
   */
  it('keeps the given order among nodes free at the same time', () => {
    expect(topologicalOrder(dag().node('y').node('x').node('z', 'y').dependencies())).toEqual(['y', 'x', 'z']);
  });

  /*
   *   a ──▶ b ──▶ a
   */
  it('gives undefined for a cycle', () => {
    expect(topologicalOrder(dag().node('a', 'b').node('b', 'a').dependencies())).toBeUndefined();
  });

  /*
   *   a ══▶ b        (b reads two outputs of a)
   */
  it('counts a dependency named twice once', () => {
    expect(topologicalOrder(dag().node('a').node('b', 'a', 'a').dependencies())).toEqual(['a', 'b']);
  });
});
