/**
 * A promise a test opens by hand. Nodes wait on gates so that tests decide the order things happen
 * in, instead of relying on how long anything takes.
 */
export class Gate {
  readonly opened: Promise<void>;
  private openIt: () => void = () => undefined;

  constructor() {
    this.opened = new Promise<void>((resolve) => {
      this.openIt = resolve;
    });
  }

  open(): void {
    this.openIt();
  }
}

/** A promise that never settles: a model or handler that never answers. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}
