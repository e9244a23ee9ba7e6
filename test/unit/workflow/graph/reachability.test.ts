import { describe, expect, it } from '@jest/globals';
import { reachableFrom } from '../../../../src/workflow/graph/reachability.js';
import { dag } from '../support/graph-builder.js';

describe('reachableFrom', () => {
  /*
   *   a ──▶ b ──▶ c        x ──▶ y
   *
   *   from c, along dependencies: c, b, a
   */
  it('collects everything upstream of the starts, the starts included', () => {
    const graph = dag().node('b', 'a').node('c', 'b').node('y', 'x').dependencies();
    expect([...reachableFrom(['c'], graph)].sort()).toEqual(['a', 'b', 'c']);
  });

  /*
   *        ┌──▶ b ──┐
   *   a ───┤        ├──▶ d      e
   *        └──▶ c ──┘
   */
  it('visits a shared dependency once and leaves out what nothing reaches', () => {
    const graph = dag().node('b', 'a').node('c', 'a').node('d', 'b', 'c').node('e').dependencies();
    expect([...reachableFrom(['d'], graph)].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  /*
   *   a ◀──▶ b
   */
  it('ends on cycles', () => {
    expect([...reachableFrom(['a'], dag().node('a', 'b').node('b', 'a').dependencies())].sort()).toEqual(['a', 'b']);
  });
});
