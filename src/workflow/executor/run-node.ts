import { setMaxListeners } from 'node:events';
import type { WorkflowNode } from '../definition/workflow-definition.js';
import { callTarget, type CallContext } from './call-target.js';
import type { WorkflowClock } from './execute-options.js';
import { mapInOrder } from './fan-out.js';
import { runAttempts } from './run-attempts.js';

type Outputs = Readonly<Record<string, unknown>>;

/** What running a node reports back while it runs. */
export interface NodeRunHooks {
  attempt(): void;
  calls(count: number): void;
  /** A `forEach` call succeeded. */
  element(index: number, outputs: Outputs): void;
}

/** Lists of the calls' outputs, one list per output, elements in the order of the calls. */
function collect(node: WorkflowNode, results: readonly Outputs[]): Outputs {
  const names = new Set([...node.ports.outputs.map((port) => port.name), ...results.flatMap((result) => Object.keys(result))]);
  return Object.fromEntries([...names].map((name) => [name, results.map((result) => result[name])]));
}

/**
 * Runs one node with its timeout and retries. A `forEach` node makes one call per element of `list`
 * (`inputsFor(element)` binds `$item`), at most `concurrency` at a time; its outputs are the lists of
 * the calls' outputs, in order. The first call to fail for good cancels the others.
 */
export async function runNode(
  node: WorkflowNode,
  list: readonly unknown[] | undefined,
  inputsFor: (item: unknown) => Outputs,
  signal: AbortSignal,
  context: CallContext & { readonly clock: WorkflowClock },
  hooks: NodeRunHooks,
): Promise<Outputs> {
  const policy = { ...node.retry, timeoutMs: node.timeoutMs };
  const once = (item: unknown, callSignal: AbortSignal, index?: number): Promise<Outputs> =>
    runAttempts((attemptSignal) => callTarget(node, inputsFor(item), attemptSignal, context, index), policy, callSignal, context.clock, () => {
      hooks.attempt();
    });
  if (list === undefined) return once(undefined, signal);
  hooks.calls(list.length);
  const siblings = new AbortController();
  // Each call in flight listens to it: `concurrency` listeners are expected, not a leak to warn of.
  setMaxListeners(0, siblings.signal);
  const onAbort = (): void => {
    siblings.abort(signal.reason);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    const results = await mapInOrder(list, node.concurrency, async (item, index) => {
      const outputs = await once(item, siblings.signal, index);
      hooks.element(index, outputs);
      return outputs;
    });
    return collect(node, results);
  } catch (error) {
    siblings.abort(error);
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
