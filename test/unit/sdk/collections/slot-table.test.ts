import { describe, expect, it } from '@jest/globals';
import { SlotTable } from '../../../../src/sdk/collections/slot-table.js';

describe('SlotTable', () => {
  it('gives each value held at the same time a key of its own', () => {
    const table = new SlotTable<string>();
    const keys = ['a', 'b', 'c'].map((value) => table.add(value));
    expect([new Set(keys).size, table.size]).toEqual([3, 3]);
  });

  it('hands back the value under a key once', () => {
    const table = new SlotTable<string>();
    const key = table.add('a');
    expect([table.take(key), table.take(key), table.size]).toEqual(['a', undefined, 0]);
  });

  it('uses a taken key again for a later value', () => {
    const table = new SlotTable<string>();
    const first = table.add('a');
    table.take(first);
    expect(table.add('b')).toBe(first);
  });

  it('holds nothing under a key it never gave out', () => {
    const table = new SlotTable<string>();
    table.add('a');
    expect([table.take(7), table.take(-1), table.take(0.5), table.size]).toEqual([undefined, undefined, undefined, 1]);
  });

  it('hands back every value at once, and is empty after', () => {
    const table = new SlotTable<string>();
    table.add('a');
    table.take(table.add('b'));
    table.add('c');
    expect([table.takeAll().sort(), table.size]).toEqual([['a', 'c'], 0]);
  });
});
