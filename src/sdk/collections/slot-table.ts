/**
 * Values under whole-number keys that it hands out itself and takes back (requests awaiting their reply,
 * say), held in an array whose free slots are used again. A long-lived `Map` whose keys keep changing
 * would chain its retired hash tables, and what they held, into the old generation (see
 * {@link ArrayBackedSet}); an array forgets a value when it is taken.
 */
export class SlotTable<T> {
  private readonly slots: (T | undefined)[] = [];
  private readonly free: number[] = [];
  private count = 0;

  /** How many values it holds. */
  get size(): number {
    return this.count;
  }

  /** Stores `value` and answers its key, which names no other value until {@link take} gives it back. */
  add(value: T): number {
    const key = this.free.pop() ?? this.slots.length;
    this.slots[key] = value;
    this.count += 1;
    return key;
  }

  /** The value under `key`, removed; undefined when it holds none there. */
  take(key: number): T | undefined {
    if (!Number.isInteger(key) || key < 0) return undefined;
    const value = this.slots[key];
    if (value === undefined) return undefined;
    this.slots[key] = undefined;
    this.free.push(key);
    this.count -= 1;
    return value;
  }

  /** Every value it holds, removed. */
  takeAll(): T[] {
    const values = this.slots.filter((value): value is T => value !== undefined);
    this.slots.length = 0;
    this.free.length = 0;
    this.count = 0;
    return values;
  }
}
