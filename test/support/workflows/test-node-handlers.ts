import type { NodeHandler, NodeHandlerContext } from '../../../src/plugins/sdk/node-handler.js';

/**
 * A hand-operated gate for node handlers: while held, calls wait at it; tests learn when a call has
 * reached it and open it when they choose, so nothing depends on how long anything takes.
 */
export class NodeGate {
  private held = false;
  private waiting: (() => void)[] = [];
  private arrivals = 0;
  private arrivalListeners: (() => void)[] = [];

  /** Calls that have reached the gate so far. */
  get arrived(): number {
    return this.arrivals;
  }

  /** Later calls wait until {@link release}. */
  hold(): void {
    this.held = true;
  }

  /** Lets every waiting call through and stops holding. */
  release(): void {
    this.held = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** Resolves once at least `count` calls have reached the gate. */
  async untilArrived(count: number): Promise<void> {
    while (this.arrivals < count) await new Promise<void>((resolve) => this.arrivalListeners.push(resolve));
  }

  /** Called by a handler: counts the arrival, then waits while the gate is held. */
  async pass(): Promise<void> {
    this.arrivals += 1;
    const listeners = this.arrivalListeners;
    this.arrivalListeners = [];
    for (const listener of listeners) listener();
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
}

/** `test/gated-tag`: waits at `gate`, then answers its `tag` input unchanged. */
export function gatedTagHandler(gate: NodeGate): NodeHandler {
  return {
    name: 'test/gated-tag',
    inputs: ['tag'],
    outputs: { tag: {} },
    async run(inputs) {
      await gate.pass();
      return { tag: inputs['tag'] };
    },
  };
}

/** A handler that always throws, counting its calls. */
export interface FailingHandler extends NodeHandler {
  readonly calls: number;
}

/** `test/always-fails`: every call throws `Error(message)`. */
export function failingHandler(message: string): FailingHandler {
  let calls = 0;
  return {
    name: 'test/always-fails',
    inputs: [],
    outputs: { text: {} },
    get calls() {
      return calls;
    },
    run() {
      calls += 1;
      return Promise.reject(new Error(message));
    },
  };
}

/** A handler that never answers, remembering the calls whose signal was aborted. */
export interface SilentHandler extends NodeHandler {
  readonly calls: number;
  /** Calls whose signal was aborted (their node was cancelled). */
  readonly cancelled: number;
  /** Resolves once at least `count` calls were cancelled. */
  untilCancelled(count: number): Promise<void>;
}

/** `test/never-answers`: every call stays pending forever; it only notes that its signal aborts. */
export function silentHandler(): SilentHandler {
  let calls = 0;
  let cancelled = 0;
  let listeners: (() => void)[] = [];
  return {
    name: 'test/never-answers',
    inputs: [],
    outputs: { text: {} },
    get calls() {
      return calls;
    },
    get cancelled() {
      return cancelled;
    },
    async untilCancelled(count: number) {
      while (cancelled < count) await new Promise<void>((resolve) => listeners.push(resolve));
    },
    run(_inputs, context: NodeHandlerContext) {
      calls += 1;
      context.signal.addEventListener('abort', () => {
        cancelled += 1;
        const waiting = listeners;
        listeners = [];
        for (const listener of waiting) listener();
      });
      return new Promise<never>(() => undefined);
    },
  };
}
