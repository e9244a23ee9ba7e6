import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { Handler, HandlerRequest, HandlerResult } from '../../sdk/handler/handler.js';
import type { HandlerTask, HandlerTaskOutcome, ThreadStartNotice } from './handler-task.js';
import { threadContext } from './thread-context.js';
import { toThreadError } from './thread-error.js';
import { preparedTransferList } from './transfer-list.js';

const imported = new Map<string, Promise<Handler>>();

async function importHandler(task: HandlerTask): Promise<Handler> {
  const module = (await import(task.module)) as Record<string, unknown>;
  const handler = module[task.exportName] as Partial<Handler> | undefined;
  if (typeof handler?.preprocess !== 'function' || typeof handler.postprocess !== 'function') {
    throw new Error(`module ${task.module} has no handler in its export \`${task.exportName}\``);
  }
  return handler as Handler;
}

async function handlerOf(task: HandlerTask): Promise<Handler> {
  const key = `${task.module}#${task.exportName}`;
  let importing = imported.get(key);
  if (importing === undefined) {
    importing = importHandler(task);
    // A failed import is retried on the next call rather than remembered.
    importing.catch(() => imported.delete(key));
    imported.set(key, importing);
  }
  const handler = await importing;
  if (handler.name !== task.handler) {
    throw new Error(`the export \`${task.exportName}\` of ${task.module} is handler \`${handler.name}\`, not \`${task.handler}\``);
  }
  return handler;
}

async function runStage(task: HandlerTask): Promise<readonly unknown[]> {
  const handler = await handlerOf(task);
  const context = threadContext(task);
  return task.stage === 'preprocess'
    ? handler.preprocess(task.items as readonly HandlerRequest[], context)
    : handler.postprocess(task.items as readonly HandlerResult[], context);
}

/**
 * The outcome as it will reach the main thread. Cloning here rather than only in `postMessage` turns an
 * answer that cannot cross threads into an error for this call instead of a crashed thread; the clone
 * takes the movable buffers along without copying them.
 */
function sendable(task: HandlerTask, value: readonly unknown[]): HandlerTaskOutcome {
  const transfer = task.stage === 'preprocess' ? preparedTransferList(value) : [];
  try {
    return { ok: true, value: structuredClone(value, { transfer }) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { kind: 'error', name: 'DataCloneError', message: `its answer cannot leave the worker thread: ${reason}` } };
  }
}

/** Runs one stage of a CPU-heavy handler on this worker thread; the pool's task function. */
export default async function runHandlerTask(task: HandlerTask): Promise<unknown> {
  task.port.postMessage({ started: true } satisfies ThreadStartNotice);
  let value: readonly unknown[];
  try {
    value = await runStage(task);
  } catch (error) {
    return { ok: false, error: toThreadError(error) } satisfies HandlerTaskOutcome;
  }
  const outcome = sendable(task, value);
  const transfers = outcome.ok && task.stage === 'preprocess' ? preparedTransferList(outcome.value) : [];
  if (transfers.length === 0) return outcome;
  return move({ [transferableSymbol]: transfers, [valueSymbol]: outcome });
}
