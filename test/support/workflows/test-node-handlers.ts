import type { NodeHandler, NodeHandlerContext } from '../../../src/sdk/node-handler/node-handler.js';
import type { Gate as NodeGate } from '../gate.js';

/** The gate node handlers wait at (see {@link Gate}). */
export { Gate as NodeGate } from '../gate.js';

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

/** `test/logs`: logs `noted` (with its `tag` input) through its context's logger, then answers `tag`. */
export function loggingHandler(): NodeHandler {
  return {
    name: 'test/logs',
    inputs: ['tag'],
    outputs: { tag: {} },
    run(inputs, context: NodeHandlerContext) {
      context.logger.info('noted', { tag: String(inputs['tag']) });
      return Promise.resolve({ tag: inputs['tag'] });
    },
  };
}
