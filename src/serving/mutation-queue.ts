/**
 * Runs async mutations one at a time, in call order, so that concurrent management calls never
 * interleave (and each snapshot reflects a consistent state).
 */
export class MutationQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every earlier task settled; resolves or rejects with its result. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
