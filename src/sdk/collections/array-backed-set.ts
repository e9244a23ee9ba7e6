/**
 * A set of objects that keep joining and leaving it for as long as a server runs (open connections, calls
 * in progress), held in an array, with each member's place in a `WeakMap`.
 *
 * A long-lived `Set` or `Map` is the wrong home for such members. Each time V8 rebuilds the hash table of
 * one whose keys keep changing, the table it retires keeps a link to its successor (for iterators still
 * walking it) and the entries it held. Once a retired table lies in the old generation, as any full
 * collection under load can leave one, each young-generation collection keeps the next table, and what
 * its entries hold, alive until it is promoted too: a chain that every later request joins, which only
 * the next full collection breaks, and the one after it under load starts again. A server caught in it
 * promoted every request's objects and lost a third of its throughput. An array forgets a member when it
 * leaves, and a `WeakMap`'s retired tables link to nothing.
 */
export class ArrayBackedSet<T extends object> implements Iterable<T> {
  private readonly members: T[] = [];
  private readonly places = new WeakMap<T, number>();

  /** How many members it has. */
  get size(): number {
    return this.members.length;
  }

  /** Whether `member` is in it. */
  has(member: T): boolean {
    return this.places.has(member);
  }

  /** Adds `member`; a member already in it stays where it is. */
  add(member: T): void {
    if (this.places.has(member)) return;
    this.places.set(member, this.members.length);
    this.members.push(member);
  }

  /** Removes `member` (the last member takes its place); false when it was not in it. */
  delete(member: T): boolean {
    const place = this.places.get(member);
    if (place === undefined) return false;
    this.places.delete(member);
    const last = this.members.pop();
    if (last !== undefined && last !== member) {
      this.members[place] = last;
      this.places.set(last, place);
    }
    return true;
  }

  /** The members as they are now, in no particular order: members may leave or join while it is walked. */
  [Symbol.iterator](): Iterator<T> {
    return [...this.members][Symbol.iterator]();
  }
}
