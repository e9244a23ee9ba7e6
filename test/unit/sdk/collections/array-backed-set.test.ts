import { describe, expect, it } from '@jest/globals';
import { ArrayBackedSet } from '../../../../src/sdk/collections/array-backed-set.js';

const members = (count: number): { readonly id: number }[] => Array.from({ length: count }, (_, id) => ({ id }));
const ids = (set: ArrayBackedSet<{ readonly id: number }>): number[] => [...set].map((member) => member.id).sort((a, b) => a - b);

describe('ArrayBackedSet', () => {
  it('holds each member once, however often it is added', () => {
    const set = new ArrayBackedSet<{ readonly id: number }>();
    const [a] = members(1);
    set.add(a!);
    set.add(a!);
    expect([set.size, set.has(a!)]).toEqual([1, true]);
  });

  it('keeps the other members when one leaves from the middle', () => {
    const set = new ArrayBackedSet<{ readonly id: number }>();
    const all = members(5);
    for (const member of all) set.add(member);
    set.delete(all[1]!);
    set.delete(all[3]!);
    expect(ids(set)).toEqual([0, 2, 4]);
  });

  it('finds a member moved into the place of one that left, and removes it', () => {
    const set = new ArrayBackedSet<{ readonly id: number }>();
    const all = members(3);
    for (const member of all) set.add(member);
    set.delete(all[0]!);
    expect([set.delete(all[2]!), set.has(all[2]!), ids(set)]).toEqual([true, false, [1]]);
  });

  it('answers false when asked to remove what it does not hold', () => {
    const set = new ArrayBackedSet<{ readonly id: number }>();
    const [a, b] = members(2);
    set.add(a!);
    expect([set.delete(b!), set.size]).toEqual([false, 1]);
  });

  it('walks the members it had when the walk began, while members leave', () => {
    const set = new ArrayBackedSet<{ readonly id: number }>();
    const all = members(4);
    for (const member of all) set.add(member);
    const walked: number[] = [];
    for (const member of set) {
      walked.push(member.id);
      set.delete(member);
    }
    expect([walked.sort((a, b) => a - b), set.size]).toEqual([[0, 1, 2, 3], 0]);
  });
});
