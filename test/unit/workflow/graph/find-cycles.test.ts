import { describe, expect, it } from '@jest/globals';
import { findCycles } from '../../../../src/workflow/graph/find-cycles.js';
import { reverseGraph } from '../../../../src/workflow/graph/graph.js';
import { dag } from '../support/graph-builder.js';

/** Cycles along the way data flows (a node to the nodes that read it). */
function cyclesOf(builder: ReturnType<typeof dag>): string[][] {
  return findCycles(reverseGraph(builder.dependencies()));
}

describe('findCycles', () => {
  /*
   *   a ──▶ b ──▶ c
   */
  it('finds none in a chain', () => {
    expect(cyclesOf(dag().node('b', 'a').node('c', 'b'))).toEqual([]);
  });

  /*
   *   a ──▶ b ──▶ c
   *   ▲           │
   *   └───────────┘
   */
  it('gives the path around a cycle, its first node repeated at the end', () => {
    expect(cyclesOf(dag().node('a', 'c').node('b', 'a').node('c', 'b'))).toEqual([['a', 'b', 'c', 'a']]);
  });

  /*
   *   a ─┐
   *   ▲  │
   *   └──┘
   */
  it('finds a self-loop', () => {
    expect(cyclesOf(dag().node('a', 'a'))).toEqual([['a', 'a']]);
  });

  /*
   *   a ◀──▶ b      c ◀──▶ d
   */
  it('finds each of two separate cycles', () => {
    expect(cyclesOf(dag().node('a', 'b').node('b', 'a').node('c', 'd').node('d', 'c'))).toEqual([
      ['a', 'b', 'a'],
      ['c', 'd', 'c'],
    ]);
  });

  /*
   *   a ◀──▶ b      c ◀──▶ d      e ◀──▶ f        asked for two
   */
  it('stops once it has found as many cycles as asked for', () => {
    const graph = dag().node('a', 'b').node('b', 'a').node('c', 'd').node('d', 'c').node('e', 'f').node('f', 'e');
    expect(findCycles(reverseGraph(graph.dependencies()), 2)).toEqual([
      ['a', 'b', 'a'],
      ['c', 'd', 'c'],
    ]);
  });

  /*
   *        ┌──▶ b ──┐
   *   a ───┤        ├──▶ d
   *        └──▶ c ──┘
   */
  it('does not take a diamond for a cycle', () => {
    expect(cyclesOf(dag().node('b', 'a').node('c', 'a').node('d', 'b', 'c'))).toEqual([]);
  });
});
