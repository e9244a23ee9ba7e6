import { describe, expect, it } from '@jest/globals';
import { propagateSkips, skippedByUpstream } from '../../../../src/workflow/graph/skip-propagation.js';
import { topologicalOrder } from '../../../../src/workflow/graph/topological-order.js';
import { dag } from '../support/graph-builder.js';

function skipsOf(builder: ReturnType<typeof dag>, skippedOnTheirOwn: string[]): string[] {
  const dependencies = builder.dependencies();
  return [...propagateSkips(topologicalOrder(dependencies) ?? [], dependencies, new Set(skippedOnTheirOwn))];
}

describe('skip propagation', () => {
  /*
   *   [a] ──▶ b ──▶ c          [x] = skipped on its own
   */
  it('skips a chain below a skipped node', () => {
    expect(skipsOf(dag().node('b', 'a').node('c', 'b'), ['a'])).toEqual(['a', 'b', 'c']);
  });

  /*
   *   [a] ──┐
   *         ├──▶ c
   *    b ───┘
   */
  it('runs a node that still has one dependency that ran', () => {
    expect(skipsOf(dag().node('a').node('b').node('c', 'a', 'b'), ['a'])).toEqual(['a']);
  });

  /*
   *   [a] ──┐
   *         ├──▶ c ──▶ d
   *   [b] ──┘
   */
  it('skips a join whose every dependency was skipped, and what follows it', () => {
    expect(skipsOf(dag().node('a').node('b').node('c', 'a', 'b').node('d', 'c'), ['a', 'b'])).toEqual(['a', 'b', 'c', 'd']);
  });

  /*
   *   a      (no dependencies)
   */
  it('never skips a node without dependencies on their account', () => {
    expect(skippedByUpstream([], () => true)).toBe(false);
  });
});
